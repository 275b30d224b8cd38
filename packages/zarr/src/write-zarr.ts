/**
 * `writeZarr`: nd-arrow rows to a new local Zarr store (README "Writing").
 * One Zarr chunk per row by default: each array's chunk shape is its block
 * in the first row (or `options.chunks`), and every row's `chunk_offset`
 * places its blocks on that grid (chunk-placer.ts: rows off the grid go in
 * pieces; a coordinate repeated in every row is written once and checked
 * equal where it repeats). Rows stream: one row's chunks are encoded and
 * written before the next is read; the metadata is written last, and the
 * store is moved into place only when everything succeeded.
 */
import { CHUNK_OFFSET, chunk as cutBatch } from "@lance-nd/nd-arrow";
import type { Attrs, Dim, NdRecordBatch } from "@lance-nd/nd-arrow";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { attrsToJson } from "./attrs.js";
import { arrayMetadata, fillOf, zarrDocuments } from "./array-metadata.js";
import { cfOptionSchema, cfOptions, encodeArray } from "./cf.js";
import type { CfOption } from "./cf.js";
import { blockOf, chunkCodec } from "./chunk-bytes.js";
import { ChunkPlacer } from "./chunk-placer.js";
import { jsonBytes } from "./metadata-docs.js";
import type { WriteCompression, WrittenArray } from "./metadata-docs.js";
import { createStoreWriter } from "./store-files.js";
import { ZarrError, zarrOptionsError } from "./zarr-error.js";

/** Options of {@link writeZarr}. */
export interface WriteZarrOptions {
  /** Zarr format: 3 (default) or 2 (`.zarray`/`.zattrs`, for older readers). */
  version?: 2 | 3;
  /** Chunk compression: zstd (default, level 3) or none. */
  compression?: { codec: "zstd"; level?: number } | { codec: "none" };
  /**
   * Chunk sizes along the dims named (`{ time: 1 }`): a single batch is cut
   * into chunks of these sizes (other dims whole); rows are written into
   * chunks of these sizes (other dims: the first row's block).
   */
  chunks?: Record<string, number>;
  /**
   * `create` (default): refuse a path that exists; `overwrite`: replace the
   * store there, only once the new one is complete.
   */
  mode?: "create" | "overwrite";
  /**
   * CF encoding through `@lance-nd/cf` before writing (`true`: mask, scale
   * and times; or `{ mask, scale, times }`): what `openZarr(..., { cf })`
   * decoded goes back to its stored type, timestamps to numbers in their
   * `units`. Default: off, arrays written as they are.
   */
  cf?: CfOption;
}

/** What {@link writeZarr} wrote. */
export interface WriteZarrResult {
  /** The arrays, in order. */
  readonly arrays: readonly string[];
  /** The rows read. */
  readonly rows: number;
  /** The chunk files written. */
  readonly chunks: number;
  /** The store's dims with their sizes: the highest-rank array's first, then the others in order (nd-arrow's grid order). */
  readonly dims: readonly Dim[];
}

const optionsSchema = z.strictObject({
  version: z.union([z.literal(2), z.literal(3)]).optional(),
  compression: z
    .union([
      z.strictObject({ codec: z.literal("zstd"), level: z.number().int().min(-131072).max(22).optional() }),
      z.strictObject({ codec: z.literal("none") }),
    ])
    .optional(),
  chunks: z.record(z.string(), z.number().int().min(1)).optional(),
  mode: z.enum(["create", "overwrite"]).optional(),
  cf: cfOptionSchema.optional(),
});

/**
 * Writes `rows` (one NdRecordBatch, or an iterable / async iterable of rows
 * with `chunk_offset`) as a Zarr store at `path`. Arrays keep their dims
 * (`_ARRAY_DIMENSIONS` in v2, `dimension_names` in v3) and attributes; a
 * `_FillValue` attribute is the v2 `fill_value` (as xarray writes it) and
 * also the v3 `fill_value`; the global attributes of the first row
 * (without `chunk_offset`) are the group's.
 *
 * Rows stream: each row's blocks go into the chunks they cover before the
 * next row is read. The chunk shape is `options.chunks` along the dims it
 * names, else the first row's block (one chunk per row); rows off that grid
 * or out of order are written into the chunks they cover, in pieces.
 *
 * Errors (`ZarrError`, the output path left as it was): `InvalidArgument`
 * (options, an existing path without `mode: "overwrite"`, two rows with other
 * values for the same cells, nulls without `_FillValue`),
 * `UnsupportedType` / `UnsupportedAttribute` (naming the array),
 * `WriteFailed`.
 *
 * @example
 * await writeZarr("sst.zarr", batch, { chunks: { time: 1 } });               // v3, zstd
 * await writeZarr("sst-v2.zarr", store.chunks(), { version: 2, compression: { codec: "none" } });
 */
export async function writeZarr(
  path: string,
  rows: NdRecordBatch | Iterable<NdRecordBatch> | AsyncIterable<NdRecordBatch>,
  options: WriteZarrOptions = {},
): Promise<WriteZarrResult> {
  if (typeof path !== "string" || path === "")
    throw new ZarrError("InvalidArgument", "the output path must be a non-empty string");
  const parsed = parseOptions(optionsSchema, options, "writeZarr", zarrOptionsError(path));
  const version = parsed.version ?? 3;
  const compression: WriteCompression =
    parsed.compression?.codec === "none" ? { codec: "none" } : { codec: "zstd", level: parsed.compression?.level ?? 3 };
  const codec = await chunkCodec(compression);
  const cf = cfOptions(parsed.cf);
  const batch = isBatch(rows);
  // A batch is cut here (its first piece is whole chunks); rows keep their blocks and take `chunks` as the grid.
  const source = batch ? (parsed.chunks === undefined ? [rows] : cutBatch(rows, parsed.chunks)) : rows;
  const chunkSizes = batch ? {} : (parsed.chunks ?? {});
  const writer = await createStoreWriter(path, parsed.mode === "overwrite");
  const sink = { version, writer, codec };
  const placers = new Map<string, ChunkPlacer>();
  let globalAttrs: Attrs | undefined;
  const seenDims = new Set<string>();
  let rowCount = 0;
  let chunkCount = 0;
  try {
    for await (const row of source) {
      const at = rowCount++;
      if (globalAttrs === undefined) {
        // Checked here, written with the metadata at the end.
        attrsToJson(row.globalAttrs, { path }, [CHUNK_OFFSET]);
        globalAttrs = row.globalAttrs;
      }
      for (const d of row.grid()) seenDims.add(d.name);
      const start = rowStart(row, at, path);
      for (const [name, stored] of row.arrays()) {
        const where = { path, variable: name };
        const array = encodeArray(stored, cf, path, name);
        const placer =
          placers.get(name) ??
          new ChunkPlacer(arrayMetadata(name, array, version, array.shape, chunkSizes, where), sink, where);
        placers.set(name, placer);
        const { dims, type, attrs } = placer.array;
        if (array.dims.length !== dims.length || array.dims.some((d, i) => d.name !== dims[i])) {
          throw new ZarrError(
            "InvalidArgument",
            `row ${at} has dims [${array.dimNames.join(", ")}], the first row [${dims.join(", ")}]`,
            where,
          );
        }
        const block = blockOf(array.values, type, attrs._FillValue === undefined ? undefined : fillOf(array), where);
        const offset = array.dims.map((d) => start.get(d.name) ?? 0);
        chunkCount += await placer.place(stored, block, array.shape, offset, at);
      }
    }
    // Rows may hold some of the arrays, on dims of their own: the chunks name dims some row has.
    const unknown = Object.keys(chunkSizes).filter((dim) => !seenDims.has(dim));
    if (unknown.length > 0) {
      throw new ZarrError(
        "InvalidArgument",
        `options.chunks names ${unknown.join(", ")}, which the rows do not have (their dims: ${[...seenDims].join(", ")})`,
        { path },
      );
    }
    const arrays = [...placers.values()].map(({ array, ends }) => ({ ...array, shape: ends }));
    const docs = zarrDocuments(version, globalAttrs ?? new Map(), arrays, compression, { path });
    for (const [key, doc] of docs) await writer.write(key, jsonBytes(doc));
    await writer.commit();
    return {
      arrays: [...placers.keys()],
      rows: rowCount,
      chunks: chunkCount,
      dims: gridOf(arrays),
    };
  } catch (err) {
    await writer.abort();
    throw err;
  }
}

function isBatch(rows: unknown): rows is NdRecordBatch {
  return (
    typeof rows === "object" &&
    rows !== null &&
    typeof (rows as NdRecordBatch).grid === "function" &&
    typeof (rows as NdRecordBatch).arrays === "function"
  );
}

/** Where row `at` starts along each grid dim: its `chunk_offset`, or 0 for the first row without one. */
function rowStart(row: NdRecordBatch, at: number, path: string): Map<string, number> {
  const grid = row.grid();
  const offset = row.globalAttr(CHUNK_OFFSET) as number[] | undefined;
  if (offset === undefined) {
    if (at > 0)
      throw new ZarrError("InvalidArgument", `row ${at} has no "${CHUNK_OFFSET}": only a single row may omit it`, {
        path,
      });
    return new Map(grid.map((d) => [d.name, 0]));
  }
  if (!Array.isArray(offset) || offset.length !== grid.length) {
    throw new ZarrError(
      "InvalidArgument",
      `row ${at}: "${CHUNK_OFFSET}" has ${String(offset)}, expected one start per grid dim [${grid.map((d) => d.name).join(", ")}]`,
      { path },
    );
  }
  return new Map(grid.map((d, i) => [d.name, Number(offset[i])]));
}

/** The dims of `arrays` in nd-arrow's grid order: the highest-rank array's dims, then the others as they come. */
function gridOf(arrays: readonly WrittenArray[]): Dim[] {
  const sizes = new Map<string, number>();
  const byRank = [...arrays].sort((a, b) => b.dims.length - a.dims.length);
  for (const array of byRank)
    array.dims.forEach((name, d) => {
      if (!sizes.has(name)) sizes.set(name, array.shape[d]!);
    });
  return [...sizes].map(([name, size]) => ({ name, size }));
}
