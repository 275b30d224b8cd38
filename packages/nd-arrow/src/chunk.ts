/**
 * Chunking a batch along named dims into complete batches (FORMAT.md section 1,
 * "Data model"; `assemble.ts` puts them back together). Each chunk records where
 * it starts in a `chunk_offset` global attribute.
 */
import { attr } from "./attrs.js";
import type { Attr } from "./attrs.js";
import { NdRecordBatch } from "./batch.js";
import { NdArrowError } from "./errors.js";
import type { NdArray } from "./ndarray.js";
import { slice } from "./window.js";

/** The global attribute that holds a chunk's start index along each grid dim, in grid order. */
export const CHUNK_OFFSET = "chunk_offset";

/**
 * `batch` cut into complete batches of at most `sizes[dim]` along each named
 * dim (the last chunk along a dim may be smaller), in row-major order over
 * the chunk indices. Each chunk has the batch's global attributes plus
 * `chunk_offset` (`List<UInt32>`: its start along every grid dim, in grid
 * order). An array that no chunk cuts (it lacks the chunked dims, or a
 * chunk spans them whole) is the same `NdArray` in every chunk; others are
 * copied with block copies along their contiguous runs.
 *
 * Throws `InvalidArgument` for a dim that is not in the grid, a size that is
 * not an integer >= 1, or a batch that already has a `chunk_offset`.
 *
 * @example
 * const chunks = chunk(batch, { time: 1, lat: 90 }); // 4 * 2 chunks of a 4 x 180 x 360 grid
 * chunks[1].globalAttr("chunk_offset");             // [0, 90, 0]
 */
export function chunk(batch: NdRecordBatch, sizes: Readonly<Record<string, number>>): NdRecordBatch[] {
  const grid = batch.grid();
  const names = grid.map((d) => d.name);
  for (const [name, size] of Object.entries(sizes)) {
    if (!names.includes(name)) {
      throw new NdArrowError(
        "InvalidArgument",
        `cannot chunk along "${name}": the grid has dims [${names.join(", ")}]`,
      );
    }
    if (!Number.isInteger(size) || size < 1) {
      throw new NdArrowError("InvalidArgument", `chunk size along "${name}" is ${size}, expected an integer >= 1`);
    }
  }
  if (batch.globalAttrs.has(CHUNK_OFFSET)) {
    throw new NdArrowError(
      "InvalidArgument",
      `the batch already has a "${CHUNK_OFFSET}" global attribute; assemble it first`,
    );
  }
  const steps = grid.map((d) => (Object.hasOwn(sizes, d.name) ? sizes[d.name]! : Math.max(d.size, 1)));
  const counts = grid.map((d, i) => Math.max(1, Math.ceil(d.size / steps[i]!)));
  const total = counts.reduce((n, c) => n * c, 1);
  const position = new Map(names.map((name, i) => [name, i]));
  const out: NdRecordBatch[] = [];
  for (let c = 0; c < total; c++) {
    const starts = new Array<number>(grid.length);
    for (let d = grid.length - 1, rest = c; d >= 0; d--) {
      starts[d] = (rest % counts[d]!) * steps[d]!;
      rest = Math.floor(rest / counts[d]!);
    }
    const extents = grid.map((dim, d) => Math.min(steps[d]!, dim.size - starts[d]!));
    const arrays = batch.arrays().map(
      ([name, array]) =>
        [
          name,
          slab(
            array,
            array.dims.map((dim) => position.get(dim.name)!),
            starts,
            extents,
          ),
        ] as const,
    );
    const globalAttrs = new Map<string, Attr>(batch.globalAttrs);
    globalAttrs.set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(starts)));
    out.push(new NdRecordBatch(arrays, globalAttrs));
  }
  return out;
}

/** The part of `array` at `starts` / `extents` (grid order; `at` maps the array's dims to grid dims). */
function slab(array: NdArray, at: readonly number[], starts: readonly number[], extents: readonly number[]): NdArray {
  return slice(
    array,
    Object.fromEntries(
      array.dims.map((d, i) => [d.name, [starts[at[i]!]!, starts[at[i]!]! + extents[at[i]!]!] as const]),
    ),
  );
}
