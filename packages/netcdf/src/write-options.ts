/**
 * The options of `writeNetcdf`, checked with zod where they enter and then
 * against the groups written and their format, and the `mode` rule shared
 * with `writeZarr` and lance-nd's `write` (nd-arrow README "Windows", the
 * reader contract): `create` refuses an existing path.
 */
import { lstat } from "node:fs/promises";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import type { NetcdfFormat } from "./format.js";
import type { GroupToWrite } from "./group-dims.js";
import { NetcdfError, netcdfOptionsError } from "./netcdf-error.js";

/** Compression of the variables a writer writes. */
export interface WriteCompression {
  /** `deflate` (zlib, built into HDF5), `zstd` (HDF5 filter 32015, from h5wasm-plugins) or `none`. */
  codec: "deflate" | "zstd" | "none";
  /** zlib level 1..9 (default 4), zstd level 1..22 (default 3). */
  level?: number;
}

/** Options of `writeNetcdf` and `writeNetcdfGroups`. */
export interface WriteNetcdfOptions {
  /** `create` (default): refuse a path that exists; `overwrite`: replace it. */
  mode?: "create" | "overwrite";
  /** Compression of every variable; default: each variable's `_DeflateLevel` or zstd / bzip2 `_Filter` (as read), else none. */
  compression?: WriteCompression;
  /** Chunk size per dim for every variable; default: each variable's `_ChunkSizes`, else contiguous. */
  chunks?: Readonly<Record<string, number>>;
  /** The unlimited dims; default: the global `_Unlimited` (as read), else none. */
  unlimited?: readonly string[];
  /**
   * The file format: `netcdf4` (HDF5), `classic` (CDF-1) or `64bit-offset`
   * (CDF-2); default: the global `_Format` (the source's, as read), else
   * `netcdf4`. The classic formats have no compression or chunks, at most
   * one unlimited dim, and only byte, char, short, int, float and double.
   */
  format?: NetcdfFormat;
}

const writeOptionsSchema = z.strictObject({
  mode: z.enum(["create", "overwrite"]).optional(),
  compression: z.strictObject({ codec: z.enum(["deflate", "zstd", "none"]), level: z.number().optional() }).optional(),
  chunks: z.record(z.string(), z.number().int().min(1)).optional(),
  unlimited: z.array(z.string()).readonly().optional(),
  format: z.enum(["netcdf4", "classic", "64bit-offset"]).optional(),
});

/** `options` checked by their schema: `InvalidArgument` listing every problem. */
export function checkWriteOptions(path: string, options: unknown): void {
  parseOptions(writeOptionsSchema, options, "writeNetcdf", netcdfOptionsError(path));
}

/**
 * `InvalidArgument` for options the groups written in `format` cannot take:
 * chunks or an unlimited dim along a dim no group has, a compression level
 * out of its codec's range, and compression, chunks or groups in a classic
 * format.
 */
export function checkOptionsFit(
  path: string,
  tree: readonly GroupToWrite[],
  format: NetcdfFormat,
  options: WriteNetcdfOptions,
): void {
  checkNamedDims(path, tree, options);
  checkLevel(path, options.compression);
  if (format !== "netcdf4") checkClassic(path, tree, format, options);
}

function checkNamedDims(path: string, tree: readonly GroupToWrite[], options: WriteNetcdfOptions): void {
  const grids = tree.map((g) => g.batch.grid());
  for (const dim of [...Object.keys(options.chunks ?? {}), ...(options.unlimited ?? [])]) {
    if (!grids.some((grid) => grid.some((d) => d.name === dim))) {
      const names = [...new Set(grids.flat().map((d) => d.name))];
      throw new NetcdfError(
        "InvalidArgument",
        `${path}: no dim "${dim}" to chunk or make unlimited (the dims are ${names.join(", ")})`,
        { path },
      );
    }
  }
}

function checkLevel(path: string, compression: WriteNetcdfOptions["compression"]): void {
  const { codec, level } = compression ?? {};
  const most = codec === "zstd" ? 22 : 9;
  if (level !== undefined && (codec === "none" || !Number.isInteger(level) || level < 1 || level > most)) {
    throw new NetcdfError("InvalidArgument", `${path}: ${codec} level ${level} is not an integer 1..${most}`, {
      path,
    });
  }
}

function checkClassic(
  path: string,
  tree: readonly GroupToWrite[],
  format: Exclude<NetcdfFormat, "netcdf4">,
  options: WriteNetcdfOptions,
): void {
  if ((options.compression !== undefined && options.compression.codec !== "none") || options.chunks !== undefined) {
    throw new NetcdfError(
      "InvalidArgument",
      `${path}: a ${format} netCDF file has no compression or chunks (write format netcdf4 for them)`,
      { path },
    );
  }
  if (tree.length > 1)
    throw new NetcdfError(
      "InvalidArgument",
      `${path}: a ${format} netCDF file has no groups (write format netcdf4 for ${tree[1]!.path})`,
      { path },
    );
}

/** With `mode` `create` (the default), an existing `path` is `InvalidArgument` naming the mode that replaces it. */
export async function refuseExisting(path: string, mode: "create" | "overwrite" | undefined): Promise<void> {
  if ((mode ?? "create") === "overwrite") return;
  const found = await lstat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => err.code !== "ENOENT",
  );
  if (found) {
    throw new NetcdfError("InvalidArgument", `${path}: already exists (pass mode: "overwrite" to replace it)`, {
      path,
    });
  }
}
