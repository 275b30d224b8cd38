/**
 * `writeZarr`: nd-arrow rows to a new local Zarr store (README "Writing").
 * One Zarr chunk per row by default: each array's chunk shape is its block
 * in the first row, and every row's `chunk_offset` places its blocks on that
 * grid (an array repeated in every row, a coordinate, is written once and
 * checked equal where it repeats). Rows stream: one row's chunks are encoded
 * and written before the next is read; the metadata is written last, and the
 * store is moved into place only when everything succeeded.
 */
import { CHUNK_OFFSET, chunk as cutBatch } from "@lance-nd/nd-arrow";
import type { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { z } from "zod";
import { attrToJson, attrsToJson } from "./attrs.js";
import { cfOptionSchema, cfOptions, encodeArray } from "./cf.js";
import type { CfOption } from "./cf.js";
import { chunkBytes, chunkCodec } from "./chunk-bytes.js";
import { toZarrType } from "./data-type.js";
import { chunkKey, jsonBytes, v2Documents, v3Documents } from "./metadata-docs.js";
import type { Compression, WrittenArray } from "./metadata-docs.js";
import { createStoreWriter } from "./store-files.js";
import { parseOptions } from "./options.js";
import { ZarrError } from "./zarr-error.js";

/** Options of {@link writeZarr}. */
export interface WriteZarrOptions {
  /** Zarr format: 3 (default) or 2 (`.zarray`/`.zattrs`, for older readers). */
  version?: 2 | 3;
  /** Chunk compression: zstd (default, level 3) or none. */
  compression?: { codec: "zstd"; level?: number } | { codec: "none" };
  /** Cut a single batch into chunks of these sizes (`{ time: 1 }`); rows with `chunk_offset` are chunks already. */
  chunks?: Record<string, number>;
  /** Replace an existing store at the path (only once the new one is complete). */
  overwrite?: boolean;
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
  overwrite: z.boolean().optional(),
  cf: cfOptionSchema.optional(),
});

/** One array being written: its grid and what is done. */
interface Plan {
  readonly array: WrittenArray;
  readonly ends: number[];
  readonly written: Set<string>;
  /** Arrays already checked equal to the chunk they repeat (the same NdArray in every row of `chunks()`). */
  readonly repeated: WeakSet<NdArray>;
}

/**
 * Writes `rows` (one NdRecordBatch, or an iterable / async iterable of rows
 * with `chunk_offset`) as a Zarr store at `path`. Arrays keep their dims
 * (`_ARRAY_DIMENSIONS` in v2, `dimension_names` in v3) and attributes; a
 * `_FillValue` attribute is the v2 `fill_value` (as xarray writes it) and
 * also the v3 `fill_value`; the global attributes of the first row
 * (without `chunk_offset`) are the group's.
 *
 * Errors (`ZarrError`, the output path left as it was): `InvalidArgument`
 * (options, an existing path without `overwrite`, a row off the chunk grid,
 * nulls without `_FillValue`), `UnsupportedType` / `UnsupportedAttribute`
 * (naming the array), `WriteFailed`.
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
  const parsed = parseOptions(optionsSchema, options, path);
  const version = parsed.version ?? 3;
  const compression: Compression =
    parsed.compression?.codec === "none" ? { codec: "none" } : { codec: "zstd", level: parsed.compression?.level ?? 3 };
  const codec = await chunkCodec(compression);
  const cf = cfOptions(parsed.cf);
  const source = isBatch(rows) ? (parsed.chunks === undefined ? [rows] : cutBatch(rows, parsed.chunks)) : rows;
  const writer = await createStoreWriter(path, parsed.overwrite ?? false);
  const plans = new Map<string, Plan>();
  let groupAttrs: Record<string, unknown> | undefined;
  let rowCount = 0;
  let chunkCount = 0;
  try {
    for await (const row of source) {
      const at = rowCount++;
      if (groupAttrs === undefined) {
        groupAttrs = attrsToJson(row.globalAttrs, { path }, [CHUNK_OFFSET]);
      }
      const start = rowStart(row, at, path);
      for (const [name, stored] of row.arrays()) {
        const where = { path, variable: name };
        const array = encodeArray(stored, cf, path, name);
        const plan = plans.get(name) ?? newPlan(name, array, version, where);
        plans.set(name, plan);
        const { chunkShape, dims } = plan.array;
        if (array.dims.length !== dims.length || array.dims.some((d, i) => d.name !== dims[i])) {
          throw new ZarrError(
            "InvalidArgument",
            `row ${at} has dims [${array.dimNames.join(", ")}], the first row [${dims.join(", ")}]`,
            where,
          );
        }
        const index = array.dims.map((d, i) => {
          const offset = start.get(d.name) ?? 0;
          if (offset % chunkShape[i]! !== 0 || d.size > chunkShape[i]!) {
            throw new ZarrError(
              "InvalidArgument",
              `row ${at} places a block of ${d.size} at ${offset} along "${d.name}", off its chunk grid of ${chunkShape[i]}`,
              where,
            );
          }
          plan.ends[i] = Math.max(plan.ends[i]!, offset + d.size);
          return offset / chunkShape[i]!;
        });
        const key = chunkKey(version, index);
        const fill = plan.array.attrs._FillValue === undefined ? undefined : fillOf(array);
        if (plan.written.has(key)) {
          // A coordinate repeats in every row: written once. Other values there mean rows of several datasets.
          if (plan.repeated.has(stored)) continue;
          const before = await codec.decode(await writer.read(`${name}/${key}`));
          if (!sameBytes(before, chunkBytes(array.values, plan.array.type, array.shape, chunkShape, fill, where))) {
            throw new ZarrError(
              "InvalidArgument",
              `row ${at} has other values for chunk [${index.join(", ")}] than an earlier row (rows of several datasets? select one id)`,
              where,
            );
          }
          plan.repeated.add(stored);
          continue;
        }
        plan.written.add(key);
        const bytes = chunkBytes(array.values, plan.array.type, array.shape, chunkShape, fill, where);
        await writer.write(`${name}/${key}`, await codec.encode(bytes));
        chunkCount++;
      }
    }
    const arrays = [...plans.values()].map(({ array, ends }) => ({ ...array, shape: ends }));
    const docs = (version === 2 ? v2Documents : v3Documents)(groupAttrs ?? {}, arrays, compression);
    for (const [key, doc] of docs) await writer.write(key, jsonBytes(doc));
    await writer.commit();
    return { arrays: [...plans.keys()], rows: rowCount, chunks: chunkCount };
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

function newPlan(name: string, array: NdArray, version: 2 | 3, where: { path: string; variable: string }): Plan {
  const type = toZarrType(array.type, version, where);
  const attrs = attrsToJson(array.attrs, where);
  const fillAttr = array.attrs.get("_FillValue");
  return {
    array: {
      name,
      dims: array.dimNames,
      shape: array.shape,
      chunkShape: array.shape.map((s) => Math.max(s, 1)),
      type,
      attrs,
      fill: fillAttr === undefined ? null : attrToJson("_FillValue", fillAttr, where),
    },
    ends: array.shape.map(() => 0),
    written: new Set(),
    repeated: new WeakSet(),
  };
}

function fillOf(array: NdArray): number | bigint | boolean | string | undefined {
  const value = array.attr("_FillValue");
  const one = Array.isArray(value) ? value[0] : value;
  return typeof one === "number" || typeof one === "bigint" || typeof one === "boolean" || typeof one === "string"
    ? one
    : undefined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
