/**
 * The variables of an opened store (README "Reading"): what `openZarr`
 * tells of each array, their stored attributes, and the dims of the whole
 * store.
 */
import { attr, toAttrs } from "@lance-nd/nd-arrow";
import type { Attrs, Dim, NdSourceVariable } from "@lance-nd/nd-arrow";
import { DataType } from "apache-arrow";
import type { CodecMetadata } from "zarrita";
import { attrFromJson, attrsFromJson } from "./attrs.js";
import { BYTE_WIDTH_ATTR, fillAttrOfBase64 } from "./byte-strings.js";
import type { ArrayNode } from "./metadata.js";
import { ZarrError } from "./zarr-error.js";

/** One array of a store, as `openZarr` describes it: an nd-arrow `NdSourceVariable` with Zarr's own details. */
export interface ZarrVariable extends NdSourceVariable {
  readonly name: string;
  /** The nd-arrow value type of the values as stored. */
  readonly type: DataType;
  /** The same as `type` (every Zarr array has one). */
  readonly valueType: DataType;
  /** The values' bytes, uncompressed: the cells times `itemBytes` of the type (1 a bool, 8 a variable-width value). */
  readonly bytes: number;
  /** The dims, in order, with sizes. */
  readonly dims: readonly Dim[];
  /** The attributes (a v2 `fill_value` is `_FillValue`, as xarray shows it). */
  readonly attrs: Attrs;
  /** The Zarr data type as stored (`"<f4"`, `"float32"`, `"|O"`). */
  readonly dataType: string;
  /** The chunk shape (inner chunks of a sharded array). */
  readonly chunks: readonly number[];
  /** The shard shape of a sharded array, else `undefined`. */
  readonly shards: readonly number[] | undefined;
  /** @internal The codec pipeline zarrita decodes the chunks with (v2 filters and compressor as `numcodecs.*`). */
  readonly codecs: readonly CodecMetadata[];
  /** The fill value as stored. */
  readonly fillValue: unknown;
}

/**
 * The attributes as stored (a v2 `fill_value` as `_FillValue`, as xarray
 * shows it); a `|S<n>` array also gets its width `n` (byte-strings.ts).
 */
export function storedAttrs(node: ArrayNode, path: string): Attrs {
  const where = { path, variable: node.name };
  const attrs = new Map(attrsFromJson(node.attrs, node.type.arrow, where));
  if (
    node.format === 2 &&
    node.fillValue !== null &&
    node.fillValue !== undefined &&
    node.type.kind === "plain" &&
    !attrs.has("_FillValue")
  ) {
    attrs.set("_FillValue", attrFromJson("_FillValue", node.fillValue, node.type.arrow, where));
  }
  if (node.type.kind === "bytes" && node.type.width !== undefined) {
    attrs.set(BYTE_WIDTH_ATTR, attr.int32(node.type.width));
    const fill = node.format === 2 && !attrs.has("_FillValue") ? fillAttrOfBase64(node.fillValue, where) : undefined;
    if (fill !== undefined) attrs.set("_FillValue", fill);
  }
  return toAttrs(attrs);
}

/** The variable of `node`, with its stored attributes. */
export function describe(node: ArrayNode, stored: Attrs): ZarrVariable {
  const dims = node.dimNames.map((name, i) => ({ name, size: node.shape[i]! }));
  return {
    name: node.name,
    type: node.type.arrow,
    valueType: node.type.arrow,
    bytes: arrayBytes(node.type.arrow, dims),
    dims,
    attrs: stored,
    dataType: node.type.stored,
    chunks: node.chunkShape,
    shards: node.shardShape,
    codecs: node.zarrita.codecs,
    fillValue: node.fillValue,
  };
}

/** The bytes of the values of an array of `type` on `dims`, uncompressed ({@link itemBytes} a value, a bool's one byte). */
export function arrayBytes(type: DataType, dims: readonly Dim[]): number {
  return dims.reduce((n, d) => n * d.size, DataType.isBool(type) ? 1 : itemBytes(type));
}

/** The grid of all arrays (nd-arrow's grid rule); `InvalidStore` when two arrays disagree on a dim's size. */
export function storeDims(variables: readonly ZarrVariable[], path: string): Dim[] {
  let widest: ZarrVariable | undefined;
  for (const v of variables) if (widest === undefined || v.dims.length > widest.dims.length) widest = v;
  const sizes = new Map<string, { size: number; owner: string }>();
  for (const v of widest === undefined ? variables : [widest, ...variables]) {
    for (const { name, size } of v.dims) {
      const seen = sizes.get(name);
      if (seen === undefined) sizes.set(name, { size, owner: v.name });
      else if (seen.size !== size) {
        throw new ZarrError(
          "InvalidStore",
          `dim "${name}" has size ${size} here but ${seen.size} in array "${seen.owner}"`,
          { path, variable: v.name },
        );
      }
    }
  }
  return [...sizes].map(([name, { size }]) => ({ name, size }));
}

/** Bytes per value of `type` (8 for strings: an estimate for row sizes). */
export function itemBytes(type: DataType): number {
  const width = (type as { bitWidth?: number }).bitWidth;
  if (typeof width === "number") return Math.max(1, width / 8);
  const precision = (type as { precision?: number }).precision;
  if (typeof precision === "number") return [2, 4, 8][precision] ?? 8;
  return 8;
}
