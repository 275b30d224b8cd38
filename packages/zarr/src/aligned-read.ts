/**
 * The fast path of a read whose window falls on chunk boundaries (every row
 * `chunks()` cuts on the storage grid): each chunk is fetched and decoded
 * with zarrita's `getChunk` and copied into the output with one
 * `TypedArray.set` per contiguous run (chunk-box.ts), instead of zarrita's general
 * element-wise selection copy. Numbers only, C order.
 */
import type * as zarr from "zarrita";
import { copyBox } from "./chunk-box.js";
import type { Plain } from "./chunk-bytes.js";

/** A typed array of a chunk's values, and how to make another of its kind. */
type Numbers = Plain & { constructor: new (n: number) => Numbers };

/**
 * The window `[start, stop)` per dim of `array`, row-major, or `undefined`
 * when the window does not start on chunk boundaries and end on them (or at
 * the array's end), or a chunk is not a C-order typed array.
 */
export async function readAligned(
  array: zarr.Array<zarr.DataType>,
  window: readonly (readonly [number, number])[],
): Promise<Numbers | undefined> {
  const chunkShape = array.chunks;
  const shape = array.shape;
  const rank = shape.length;
  if (rank === 0 || window.length !== rank) return undefined;
  for (let d = 0; d < rank; d++) {
    const [start, stop] = window[d]!;
    if (start % chunkShape[d]! !== 0 || (stop % chunkShape[d]! !== 0 && stop !== shape[d]) || stop <= start)
      return undefined;
  }
  const outShape = window.map(([start, stop]) => stop - start);
  const first = window.map(([start], d) => start / chunkShape[d]!);
  const counts = window.map(([start, stop], d) => Math.ceil(stop / chunkShape[d]!) - start / chunkShape[d]!);
  const total = counts.reduce((n, c) => n * c, 1);
  const coords = Array.from({ length: total }, (_, i) => {
    const c = new Array<number>(rank);
    for (let d = rank - 1, rest = i; d >= 0; d--) {
      c[d] = first[d]! + (rest % counts[d]!);
      rest = Math.floor(rest / counts[d]!);
    }
    return c;
  });
  const chunks = await Promise.all(coords.map((c) => array.getChunk(c)));
  let out: Numbers | undefined;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    const data = chunk.data as unknown as Numbers;
    if (!ArrayBuffer.isView(data) || !isRowMajor(chunk.shape, chunk.stride)) return undefined;
    out ??= new data.constructor(outShape.reduce((n, s) => n * s, 1));
    // The chunk's extent inside the window (edge chunks are padded) and where it lands in the output.
    const coord = coords[i]!;
    const extent = coord.map((c, d) => Math.min(chunkShape[d]!, window[d]![1] - c * chunkShape[d]!));
    const origin = coord.map((c, d) => c * chunkShape[d]! - window[d]![0]);
    copyBox(data, chunk.shape, new Array<number>(rank).fill(0), out, outShape, origin, extent);
  }
  return out;
}

function isRowMajor(shape: readonly number[], stride: readonly number[]): boolean {
  let expected = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d]! > 1 && stride[d] !== expected) return false;
    expected *= shape[d]!;
  }
  return true;
}
