/**
 * How `chunks()` cuts a store into rows (README "Rows"): by default along
 * the store's own storage grid (the shard grid of a sharded array, else its
 * chunk grid) of the largest variable, with neighbouring storage blocks under
 * 1 MiB merged along the slowest dims up to about 8 MiB a row; or by the
 * caller's `{ dim: size }`, other dims whole.
 */
import type { Dim } from "@lance-nd/nd-arrow";
import { ZarrError } from "./zarr-error.js";

/** A storage block under this many bytes is merged with its neighbours. */
export const SMALL_BLOCK_BYTES = 1 << 20;
/** Merged rows grow up to about this many bytes. */
export const ROW_TARGET_BYTES = 8 << 20;

/** What the planner needs of one variable. */
export interface GridVariable {
  readonly name: string;
  readonly dims: readonly Dim[];
  /** Bytes per value (an estimate for strings). */
  readonly itemBytes: number;
  /** The storage block: shard shape of a sharded array, else chunk shape. */
  readonly block: readonly number[];
}

/** The row size along every store dim (the dim's size where a row spans it whole). */
export type RowSteps = ReadonlyMap<string, number>;

/**
 * Row sizes for `dims` from `sizes` when given (validated:
 * `InvalidArgument` for an unknown dim or a size that is not an integer
 * >= 1), else from the largest variable's storage grid.
 */
export function rowSteps(
  dims: readonly Dim[],
  variables: readonly GridVariable[],
  sizes?: Readonly<Record<string, number>>,
  path?: string,
): RowSteps {
  const steps = new Map(dims.map((d) => [d.name, Math.max(d.size, 1)]));
  if (sizes !== undefined) {
    for (const [name, size] of Object.entries(sizes)) {
      if (!steps.has(name)) {
        throw new ZarrError(
          "InvalidArgument",
          `cannot cut rows along "${name}": the store has dims [${dims.map((d) => d.name).join(", ")}]`,
          { path },
        );
      }
      if (!Number.isSafeInteger(size) || size < 1) {
        throw new ZarrError(
          "InvalidArgument",
          `row size along "${name}" is ${String(size)}, expected an integer >= 1`,
          { path },
        );
      }
      steps.set(name, size);
    }
    return steps;
  }
  const largest = largestVariable(variables);
  if (largest === undefined) return steps;
  const block = largest.dims.map((d, i) => Math.min(Math.max(largest.block[i]!, 1), Math.max(d.size, 1)));
  let bytes = block.reduce((n, b) => n * b, largest.itemBytes);
  if (bytes < SMALL_BLOCK_BYTES) {
    for (let i = 0; i < block.length; i++) {
      const factor = Math.floor(ROW_TARGET_BYTES / bytes);
      if (factor <= 1) break;
      const grown = Math.min(Math.max(largest.dims[i]!.size, 1), block[i]! * factor);
      bytes = (bytes / block[i]!) * grown;
      block[i] = grown;
    }
  }
  for (const [i, d] of largest.dims.entries()) steps.set(d.name, block[i]!);
  return steps;
}

function largestVariable(variables: readonly GridVariable[]): GridVariable | undefined {
  let best: GridVariable | undefined;
  let bestBytes = -1;
  for (const v of variables) {
    if (v.dims.length === 0) continue;
    const bytes = v.dims.reduce((n, d) => n * d.size, v.itemBytes);
    if (bytes > bestBytes) [best, bestBytes] = [v, bytes];
  }
  return best;
}

/** One row: where it starts and how far it reaches along each store dim. */
export interface RowWindow {
  /** Start along every store dim, in store dim order. */
  readonly offset: readonly number[];
  /** `[start, stop)` along every store dim. */
  readonly window: ReadonlyMap<string, readonly [number, number]>;
}

/** The number of rows `steps` cut `dims` into. */
export function rowCount(dims: readonly Dim[], steps: RowSteps): number {
  return dims.reduce((n, d) => n * Math.max(1, Math.ceil(d.size / steps.get(d.name)!)), 1);
}

/** The rows, in row-major order over the row indices. */
export function* rowWindows(dims: readonly Dim[], steps: RowSteps): Generator<RowWindow> {
  const counts = dims.map((d) => Math.max(1, Math.ceil(d.size / steps.get(d.name)!)));
  const total = counts.reduce((n, c) => n * c, 1);
  for (let r = 0; r < total; r++) {
    const offset = new Array<number>(dims.length);
    const window = new Map<string, readonly [number, number]>();
    for (let d = dims.length - 1, rest = r; d >= 0; d--) {
      const { name, size } = dims[d]!;
      const step = steps.get(name)!;
      offset[d] = (rest % counts[d]!) * step;
      rest = Math.floor(rest / counts[d]!);
      window.set(name, [offset[d]!, Math.min(size, offset[d]! + step)]);
    }
    yield { offset, window: new Map(dims.map((d) => [d.name, window.get(d.name)!])) };
  }
}
