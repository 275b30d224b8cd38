/**
 * One whole Zarr chunk from the blocks of stored values that cover it
 * (README "Writing"): for stores that compute a chunk on request from the
 * rows it meets instead of writing chunks as rows come.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { fillOf } from "./array-metadata.js";
import { copyBox } from "./chunk-box.js";
import { blockOf, chunkToBytes, filledChunk } from "./chunk-bytes.js";
import type { WrittenArray } from "./metadata-docs.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** A block of stored values (its dims as the array's) and where it starts within the chunk. */
export interface PlacedBlock {
  readonly block: NdArray;
  readonly at: readonly number[];
}

/**
 * The uncompressed bytes of a chunk of `meta` (C order, little-endian,
 * strings vlen-utf8) holding `blocks` (at least one; blocks may overlap
 * where they hold the same cells); the cells no block covers (past the
 * array's edge) hold the fill value, nulls too (a null without `_FillValue`
 * is `InvalidArgument`, times are NaT).
 */
export function wholeChunkBytes(
  blocks: readonly PlacedBlock[],
  meta: WrittenArray,
  where: ZarrErrorContext,
): Uint8Array {
  const chunkShape = meta.chunkShape;
  const values = blocks.map(({ block }) => blockOf(block.values, meta.type, fillOf(block), where));
  const [first] = blocks;
  if (blocks.length === 1 && first!.block.shape.every((s, d) => s === chunkShape[d]) && first!.at.every((a) => a === 0))
    return chunkToBytes(values[0]!.values);
  const chunk = filledChunk(
    values[0]!,
    chunkShape.reduce((n, s) => n * s, 1),
  );
  blocks.forEach(({ block, at }, i) => {
    const shape = block.shape;
    copyBox(
      values[i]!.values,
      shape,
      shape.map(() => 0),
      chunk,
      chunkShape,
      at,
      shape,
    );
  });
  return chunkToBytes(chunk);
}
