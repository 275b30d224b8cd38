/**
 * A layout's chunk shape (README "Layouts"): per grid dim a size or `all`,
 * and the slabs `rechunk` reads the source in: whole chunks of the new
 * shape, at most a memory budget each, so memory follows the budget and
 * never the dataset.
 */
import type { Dim } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";

/** A chunk shape as users give it: per dim a size >= 1, or `"all"` for the whole dim (dims left out are whole). */
export type ChunkShape = Readonly<Record<string, number | "all">>;

/**
 * The chunk size along each dim of `grid` (grid order) that `shape` asks
 * for: `all` and dims left out are the whole dim, sizes past the dim are cut to it.
 *
 * @throws LanceNdError `InvalidInput` naming a dim not in the grid or a size that is not an integer >= 1.
 */
export function chunkSteps(uri: string, grid: readonly Dim[], shape: ChunkShape): number[] {
  for (const [dim, size] of Object.entries(shape)) {
    if (!grid.some((d) => d.name === dim)) {
      throw new LanceNdError(
        "InvalidInput",
        `rechunk: no dim "${dim}"; the dims are ${grid.map((d) => d.name).join(", ")}`,
        { uri },
      );
    }
    if (size !== "all" && !(Number.isSafeInteger(size) && size >= 1)) {
      throw new LanceNdError(
        "InvalidInput",
        `rechunk: chunk size of "${dim}" is ${String(size)}, expected an integer >= 1 or "all"`,
        { uri },
      );
    }
  }
  return grid.map((d) => {
    const size = shape[d.name];
    return Math.max(1, size === undefined || size === "all" ? d.size : Math.min(size, d.size));
  });
}

/** A chunk shape as text, in grid order: `time=all,lat=20,lon=20`. */
export function chunkShapeText(grid: readonly Dim[], steps: readonly number[]): string {
  return grid.map((d, i) => `${d.name}=${steps[i]! >= d.size ? "all" : steps[i]}`).join(",");
}

/** The number of chunks of `steps` on `grid`. */
export function chunkCount(grid: readonly Dim[], steps: readonly number[]): number {
  return grid.reduce((n, d, i) => n * Math.max(1, Math.ceil(d.size / steps[i]!)), 1);
}

/**
 * The bytes of the values of `variables` (each on some of the dims of
 * `grid`, `bytes` per value) in a block of `extents` cells along the grid's
 * dims: what a slab of those extents holds (a coordinate counts its own
 * cells only, not the whole block's).
 */
export function blockBytes(
  grid: readonly Dim[],
  variables: readonly { readonly dims: readonly string[]; readonly bytes: number }[],
): (extents: readonly number[]) => number {
  const position = new Map(grid.map((d, i) => [d.name, i]));
  const axes = variables.map((v) => ({ bytes: v.bytes, at: v.dims.map((dim) => position.get(dim)!) }));
  return (extents) => axes.reduce((sum, v) => sum + v.at.reduce((n, d) => n * extents[d]!, v.bytes), 0);
}

/**
 * The slabs to read `grid` in, as `[start, stop)` per dim: each is whole
 * chunks of `steps` of at most `budget` bytes as `bytesOf` weighs a block of
 * given extents (e.g. {@link blockBytes}), when one chunk fits (else one
 * chunk). A slab is one chunk along the leading dims, as many chunks as fit
 * along one dim, and whole along the dims after it.
 */
export function* slabs(
  grid: readonly Dim[],
  steps: readonly number[],
  bytesOf: (extents: readonly number[]) => number,
  budget: number,
): Generator<[number, number][]> {
  if (grid.length === 0) {
    yield [];
    return;
  }
  const sizes = grid.map((d) => Math.max(1, d.size));
  const counts = sizes.map((size, d) => Math.ceil(size / steps[d]!));
  // The extents of n chunks along dim `at`, one chunk along the dims before it, whole after.
  const extents = (at: number, n: number) =>
    sizes.map((size, d) => (d < at ? Math.min(steps[d]!, size) : d === at ? Math.min(n * steps[d]!, size) : size));
  // The first dim k at which one chunk along dims <= k, whole after, fits.
  let k = 0;
  while (k < grid.length - 1 && bytesOf(extents(k, 1)) > budget) k++;
  // The most chunks along k that fit (at least one): bytesOf grows with the extents.
  let [low, high] = [1, counts[k]!];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (bytesOf(extents(k, mid)) <= budget) low = mid;
    else high = mid - 1;
  }
  const perSlab = low;
  const outer = counts.slice(0, k).reduce((n, c) => n * c, 1);
  for (let o = 0; o < outer; o++) {
    const lead: [number, number][] = [];
    for (let d = k - 1, rest = o; d >= 0; d--) {
      const index = rest % counts[d]!;
      rest = Math.floor(rest / counts[d]!);
      lead[d] = [index * steps[d]!, Math.min((index + 1) * steps[d]!, sizes[d]!)];
    }
    for (let c = 0; c < counts[k]!; c += perSlab) {
      const along: [number, number] = [c * steps[k]!, Math.min((c + perSlab) * steps[k]!, sizes[k]!)];
      yield [...lead, along, ...sizes.slice(k + 1).map((size) => [0, size] as [number, number])];
    }
  }
}
