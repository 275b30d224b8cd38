/**
 * The options of `zarrStore` (README "Serving as Zarr") and their defaults.
 */
import { LanceNdError } from "../errors.js";

/** Options of {@link zarrStore}. */
export interface ZarrStoreOptions {
  /** Zarr format served: 2 (default: `.zgroup`/`.zarray`/`.zmetadata`) or 3 (`zarr.json`). */
  zarrVersion?: 2 | 3;
  /** Chunk codec: `"none"` (default) or `"zlib"` (deflate level 1: v2 `zlib`, v3 `gzip`). */
  codec?: "none" | "zlib";
  /** The most table rows one chunk reads (default {@link DEFAULT_MAX_CHUNK_ROWS}); rows off one regular grid get smaller chunks. */
  maxChunkRows?: number;
}

/**
 * The default bound on the table rows one chunk reads: 4, so that rows of a
 * few sizes (months of 28 to 31 days; tiles cut at other places along two
 * dims) keep chunks of their most common size, which meet up to 3 rows
 * along one dim, or 2 along each of two.
 */
export const DEFAULT_MAX_CHUNK_ROWS = 4;

/** The zlib level of served chunks: level 1 costs the least time per byte saved. */
export const ZLIB_LEVEL = 1;

/** The options with their defaults, checked. */
export interface StoreSettings {
  readonly zarrVersion: 2 | 3;
  readonly codec: "none" | "zlib";
  readonly maxChunkRows: number;
}

/** The settings of `options`; anything else is `InvalidInput` naming the option. */
export function storeSettings(uri: string, options: unknown): StoreSettings {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new LanceNdError("InvalidInput", `zarrStore: options must be an object, got ${String(options)}`, { uri });
  const {
    zarrVersion = 2,
    codec = "none",
    maxChunkRows = DEFAULT_MAX_CHUNK_ROWS,
    ...rest
  } = options as ZarrStoreOptions;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new LanceNdError(
      "InvalidInput",
      `zarrStore: unknown option ${unknown.join(", ")} (options: zarrVersion, codec, maxChunkRows)`,
      { uri },
    );
  if (zarrVersion !== 2 && zarrVersion !== 3)
    throw new LanceNdError("InvalidInput", `zarrStore: zarrVersion is 2 or 3, got ${String(zarrVersion)}`, { uri });
  if (codec !== "none" && codec !== "zlib")
    throw new LanceNdError("InvalidInput", `zarrStore: codec is "none" or "zlib", got ${String(codec)}`, { uri });
  if (!Number.isSafeInteger(maxChunkRows) || maxChunkRows < 1)
    throw new LanceNdError(
      "InvalidInput",
      `zarrStore: maxChunkRows is an integer of at least 1, got ${String(maxChunkRows)}`,
      { uri },
    );
  return { zarrVersion, codec, maxChunkRows };
}
