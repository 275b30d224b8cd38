/**
 * The fast path of a read whose window falls on chunk boundaries (every row
 * `chunks()` cuts on the storage grid): each chunk is fetched and decoded
 * with zarrita's `getChunk` and copied into the output with one
 * `TypedArray.set` per contiguous run, instead of zarrita's general
 * element-wise selection copy. Numbers only, C order.
 */
import type * as zarr from "zarrita";

type Numbers = {
  length: number;
  subarray(a: number, b: number): Numbers;
  set(src: Numbers, at: number): void;
  constructor: new (n: number) => Numbers;
};

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
    copyChunk(data, chunk.shape, coords[i]!, chunkShape, window, outShape, out);
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

/** Copies the part of chunk `coord` inside the window into `out`, one `set` per run along the last dim. */
function copyChunk(
  data: Numbers,
  shape: readonly number[],
  coord: readonly number[],
  chunkShape: readonly number[],
  window: readonly (readonly [number, number])[],
  outShape: readonly number[],
  out: Numbers,
): void {
  const rank = shape.length;
  // The chunk's extent inside the array (edge chunks are padded) and where it lands in the output.
  const extent = coord.map((c, d) => Math.min(chunkShape[d]!, window[d]![1] - c * chunkShape[d]!));
  const origin = coord.map((c, d) => c * chunkShape[d]! - window[d]![0]);
  const run = extent[rank - 1]!;
  const index = new Array<number>(rank - 1).fill(0);
  const runs = extent.slice(0, -1).reduce((n, e) => n * e, 1);
  for (let r = 0; r < runs; r++) {
    let src = 0;
    let dst = 0;
    for (let d = 0; d < rank - 1; d++) {
      src = (src + index[d]!) * shape[d + 1]!;
      dst = (dst + origin[d]! + index[d]!) * outShape[d + 1]!;
    }
    dst += origin[rank - 1]!;
    out.set(data.subarray(src, src + run), dst);
    for (let d = rank - 2; d >= 0; d--) {
      if (++index[d]! < extent[d]!) break;
      index[d] = 0;
    }
  }
}
