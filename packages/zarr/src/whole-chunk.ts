/**
 * One whole Zarr chunk from the block of stored values that covers it
 * (README "Writing"): for stores that compute a chunk on request from the
 * cells it holds instead of writing chunks as rows come.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { fillOf } from "./array-metadata.js";
import { copyBox } from "./chunk-box.js";
import { blockOf, chunkToBytes, filledChunk } from "./chunk-bytes.js";
import type { WrittenArray } from "./metadata-docs.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/**
 * The uncompressed bytes of a chunk of `meta` (C order, little-endian,
 * strings vlen-utf8) whose cells `block` holds (stored values, its dims as
 * the array's) starting at `at` within the chunk; the chunk's cells past the
 * block (at the array's edge) hold the fill value, nulls too (a null
 * without `_FillValue` is `InvalidArgument`, times are NaT).
 */
export function wholeChunkBytes(
  block: NdArray,
  meta: WrittenArray,
  at: readonly number[],
  where: ZarrErrorContext,
): Uint8Array {
  const values = blockOf(block.values, meta.type, fillOf(block), where);
  const shape = block.shape;
  const chunkShape = meta.chunkShape;
  if (shape.every((s, d) => s === chunkShape[d]) && at.every((a) => a === 0)) return chunkToBytes(values.values);
  const chunk = filledChunk(
    values,
    chunkShape.reduce((n, s) => n * s, 1),
  );
  copyBox(
    values.values,
    shape,
    shape.map(() => 0),
    chunk,
    chunkShape,
    at,
    shape,
  );
  return chunkToBytes(chunk);
}
