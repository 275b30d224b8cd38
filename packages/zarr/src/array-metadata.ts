/**
 * The Zarr metadata of an exported dataset (README "Writing"), shared by
 * `writeZarr` and by stores that serve a dataset as Zarr without writing it:
 * each array's data type, fill value, attributes and dims, and the group's
 * metadata documents. Only the chunk grid and the codec are the caller's.
 */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { Attrs, NdArray } from "@lance-nd/nd-arrow";
import { attrToJson, attrsToJson } from "./attrs.js";
import { toZarrType } from "./data-type.js";
import { v2Documents, v3Documents } from "./metadata-docs.js";
import type { Compression, WrittenArray } from "./metadata-docs.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/**
 * The metadata of array `name` from `array` (stored values: CF-encoded when
 * the export encodes; any block of it, for its type, dims and attributes)
 * with the whole array's `shape` and the chunk sizes `chunkSizes` along the
 * dims it names (other dims: the block's size). A `_FillValue` attribute is
 * the fill value. `UnsupportedType` / `UnsupportedAttribute` name the array.
 */
export function arrayMetadata(
  name: string,
  array: NdArray,
  version: 2 | 3,
  shape: readonly number[],
  chunkSizes: Readonly<Record<string, number>>,
  where: ZarrErrorContext,
): WrittenArray {
  const fillAttr = array.attrs.get("_FillValue");
  return {
    name,
    dims: array.dimNames,
    shape,
    chunkShape: array.dims.map((d) => chunkSizes[d.name] ?? Math.max(d.size, 1)),
    type: toZarrType(array.type, version, where),
    attrs: attrsToJson(array.attrs, where),
    fill: fillAttr === undefined ? null : attrToJson("_FillValue", fillAttr, where),
  };
}

/** The `_FillValue` of `array` as one value, `undefined` without one. */
export function fillOf(array: NdArray): number | bigint | boolean | string | undefined {
  const value = array.attr("_FillValue");
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === "number" || typeof one === "bigint" || typeof one === "boolean" || typeof one === "string"
    ? one
    : undefined;
}

/**
 * Every metadata document of a store of format `version` (key to JSON):
 * the group with `globalAttrs` (without `chunk_offset`) and `arrays`; v2
 * with its consolidated `.zmetadata`.
 */
export function zarrDocuments(
  version: 2 | 3,
  globalAttrs: Attrs,
  arrays: readonly WrittenArray[],
  compression: Compression,
  where: ZarrErrorContext,
): Map<string, unknown> {
  const groupAttrs = attrsToJson(globalAttrs, where, [CHUNK_OFFSET]);
  return (version === 2 ? v2Documents : v3Documents)(groupAttrs, arrays, compression);
}
