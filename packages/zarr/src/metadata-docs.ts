/**
 * The metadata documents of a written store (README "Writing"): v2
 * `.zgroup`, `.zattrs`, `.zarray` and the consolidated `.zmetadata` that
 * xarray's `open_zarr` looks for first; v3 `zarr.json` of the group and of
 * each array.
 */
import type { WriteType } from "./data-type.js";
import { stringifyZarrJson } from "./json-text.js";

/** A finished array: what its metadata says. */
export interface WrittenArray {
  readonly name: string;
  readonly dims: readonly string[];
  readonly shape: readonly number[];
  readonly chunkShape: readonly number[];
  readonly type: WriteType;
  /** The attributes as JSON, `_FillValue` included. */
  readonly attrs: Readonly<Record<string, unknown>>;
  /** The fill value as JSON (`"NaN"` spelled), `null` for none. */
  readonly fill: unknown;
}

/** The compressions `writeZarr` writes: zstd at a level, or none. */
export type WriteCompression = { codec: "zstd"; level: number } | { codec: "none" };

/**
 * A chunk codec the metadata names: one `writeZarr` writes, or zlib (v2
 * `zlib`, v3 `gzip`: the deflate codecs every Zarr reader has), for stores
 * that serve chunks they compress themselves.
 */
export type Compression = WriteCompression | { codec: "zlib"; level: number };

/** The chunk key of chunk `index` in format `version` (`0.1` in v2, `c/0/1` in v3). */
export function chunkKey(version: 2 | 3, index: readonly number[]): string {
  if (version === 2) return index.length === 0 ? "0" : index.join(".");
  return ["c", ...index].join("/");
}

/** Every metadata file of a v2 store: key to JSON document. */
export function v2Documents(
  groupAttrs: Record<string, unknown>,
  arrays: readonly WrittenArray[],
  compression: Compression,
): Map<string, unknown> {
  const docs = new Map<string, unknown>([
    [".zgroup", { zarr_format: 2 }],
    [".zattrs", groupAttrs],
  ]);
  for (const array of arrays) {
    const { _FillValue: _, ...attrs } = array.attrs;
    docs.set(`${array.name}/.zarray`, {
      chunks: array.chunkShape,
      compressor: compression.codec === "none" ? null : { id: compression.codec, level: compression.level },
      dimension_separator: ".",
      dtype: array.type.name,
      fill_value: array.fill,
      filters: array.type.layout === "text" ? [{ id: "vlen-utf8" }] : null,
      order: "C",
      shape: array.shape,
      zarr_format: 2,
    });
    docs.set(`${array.name}/.zattrs`, { ...attrs, _ARRAY_DIMENSIONS: array.dims });
  }
  docs.set(".zmetadata", { metadata: Object.fromEntries(docs), zarr_consolidated_format: 1 });
  return docs;
}

/** Every metadata file of a v3 store: key to JSON document. */
export function v3Documents(
  groupAttrs: Record<string, unknown>,
  arrays: readonly WrittenArray[],
  compression: Compression,
): Map<string, unknown> {
  const docs = new Map<string, unknown>([
    ["zarr.json", { zarr_format: 3, node_type: "group", attributes: groupAttrs }],
  ]);
  for (const array of arrays) {
    const serializer =
      array.type.layout === "text"
        ? { name: "vlen-utf8", configuration: {} }
        : array.type.itemSize > 1
          ? { name: "bytes", configuration: { endian: "little" } }
          : { name: "bytes", configuration: {} };
    const codecs: unknown[] = [serializer];
    if (compression.codec === "zstd")
      codecs.push({ name: "zstd", configuration: { level: compression.level, checksum: false } });
    if (compression.codec === "zlib") codecs.push({ name: "gzip", configuration: { level: compression.level } });
    docs.set(`${array.name}/zarr.json`, {
      zarr_format: 3,
      node_type: "array",
      shape: array.shape,
      data_type: array.type.name,
      chunk_grid: { name: "regular", configuration: { chunk_shape: array.chunkShape } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: array.fill ?? defaultFill(array.type),
      codecs,
      attributes: array.attrs,
      dimension_names: array.dims,
    });
  }
  return docs;
}

/** v3 needs a fill value: zero of the type (false, ""). */
function defaultFill(type: WriteType): unknown {
  return type.layout === "bool" ? false : type.layout === "text" ? "" : 0;
}

/** JSON bytes of a document, float attributes written as floats (`1.0`). */
export function jsonBytes(doc: unknown): Uint8Array {
  return new TextEncoder().encode(stringifyZarrJson(doc, 2));
}
