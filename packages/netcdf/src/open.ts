/**
 * `openNetcdf`: a netCDF file opened lazily (the `LazyFile` of
 * lazy-file.ts), and the types of what it returns. It follows the reader
 * contract shared with `@lance-nd/zarr` and lance-nd's datasets (nd-arrow
 * README "Windows").
 */
import { rm, writeFile } from "node:fs/promises";
import type { DataType } from "apache-arrow";
import { temporaryCopyPath } from "./file-source.js";
import type {
  Attrs,
  Dim,
  NdArray,
  NdRecordBatch,
  NdRowPlan,
  NdSource,
  NdSourceVariable,
  Selection,
} from "@lance-nd/nd-arrow";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { openClassic } from "./classic-file.js";
import { detectFormat, type NetcdfFormat } from "./format.js";
import { openHdf5 } from "./hdf5-file.js";
import { byteTextVariables } from "./byte-text.js";
import { LazyFile } from "./lazy-file.js";
import { NetcdfError, netcdfOptionsError } from "./netcdf-error.js";
import type { NcType, NetcdfCompression, NetcdfDim, RawFile } from "./raw.js";
import { copyToFile, isByteSource, openSource } from "./source.js";
import type { ByteSource } from "./source.js";

/** A variable of an open file, as {@link NetcdfFile.read} returns it: an nd-arrow `NdSourceVariable` with netCDF's own details. */
export interface NetcdfVariable extends NdSourceVariable {
  readonly name: string;
  /** The netCDF type (`char` arrays read as strings, one per row of the char dim). */
  readonly type: NcType;
  /** The dims of the array read (a char array without its last dim). */
  readonly dims: readonly Dim[];
  /** The variable's attributes, storage attributes included unless turned off. */
  readonly attrs: Attrs;
  /** Chunk sizes per stored dim, or `null` when contiguous. */
  readonly chunking: readonly number[] | null;
  /** Compression, or `null`. */
  readonly compression: NetcdfCompression | null;
  /** The bytes of the whole variable as stored uncompressed. */
  readonly bytes: number;
  /** The Arrow type of the values `read` gives (`ncDtype` of `type`); `undefined` for text (`char`, `string`). */
  readonly valueType: DataType | undefined;
}

/** Options of {@link openNetcdf}. */
export interface OpenNetcdfOptions {
  /**
   * Add the storage attributes (`_ChunkSizes`, `_DeflateLevel`, `_Shuffle`,
   * `_Filter`, `_CharDim`, `_CharDimSize`, global `_Unlimited`) that
   * `writeNetcdf` reads to write the file back as it was. Default `true`.
   */
  storageAttrs?: boolean;
  /**
   * The group to open (`"g1/g2"`, netCDF-4 only), as
   * `xr.open_dataset(f, group=...)` does: its variables, its attributes as
   * the global attributes, its own dims and the parents' dims its variables
   * use (README, "Groups"). Default: the root group, which warns that the
   * file's groups are not read with it; a group named here (`""` the root
   * too) does not warn of its subgroups. `GroupNotFound` lists the file's
   * groups when there is no such group.
   */
  group?: string;
}

/** The zod schema of {@link OpenNetcdfOptions}, shared by `readNetcdf`. */
export const openOptionsShape = { storageAttrs: z.boolean().optional(), group: z.string().optional() };

const openOptionsSchema = z.strictObject(openOptionsShape);

/** Options of {@link NetcdfFile.chunks}. */
export interface NetcdfChunksOptions {
  /** Only these variables (unknown names are `VariableNotFound`). Default: all. */
  variables?: readonly string[];
}

/** A netCDF file opened by {@link openNetcdf}: an nd-arrow `NdSource` (the reader contract) with netCDF's own details. */
export interface NetcdfFile extends NdSource {
  /** The path, or `<bytes>`. */
  readonly path: string;
  readonly format: "classic" | "64bit-offset" | "netcdf4";
  /** The file's dims in order, with which are unlimited. */
  readonly dims: readonly NetcdfDim[];
  readonly variables: readonly NetcdfVariable[];
  readonly globalAttrs: Attrs;
  /** Every group of the file below the root, by path (`"g1"`, `"g1/g2"`, parents first); open one with the `group` option. */
  readonly groups: readonly string[];
  /** Things left out (groups, unsupported types), one sentence each. */
  readonly warnings: readonly string[];
  /** One variable, or `VariableNotFound` naming the variables there are. */
  variable(name: string): NetcdfVariable;
  /**
   * Reads one variable, or the part of it in `selection` (nd-arrow README
   * "Windows": `[start, stop)` like a Python slice, an index drops the dim).
   * Reads only that hyperslab. Errors: `VariableNotFound`, `DimNotFound` (a
   * dim the variable does not have), `InvalidArgument` (an index outside
   * its dim, a value that is not an integer or a pair of them).
   */
  read(name: string, selection?: Selection): Promise<NdArray>;
  /**
   * The file as rows: batches of at most `sizes[dim]` along each named dim,
   * in row-major order of the chunk indices, each with the file's global
   * attributes and `chunk_offset` (as nd-arrow's `chunk` makes them). Only one
   * row is in memory at a time.
   */
  chunks(sizes: Readonly<Record<string, number>>, options?: NetcdfChunksOptions): AsyncGenerator<NdRecordBatch>;
  /**
   * The rows within `budget` bytes a row (`netcdfRowPlan`): whole when the
   * file fits, else on its storage chunks, with `cut` saying how; or cut
   * by `sizes` (`DimNotFound` for a dim the file lacks).
   */
  rowPlan(budget: number, sizes?: Readonly<Record<string, number>>): NdRowPlan;
  close(): Promise<void>;
}

/**
 * Opens a netCDF-3 (classic, 64-bit offset) or netCDF-4 file by its path,
 * its `http(s)://` URL, its bytes or a `ByteSource` (`openUrlSource`), and
 * reads its header; values are read on demand. A classic file at a URL is
 * read by byte ranges; a netCDF-4 one is copied to a temporary file first
 * (h5wasm reads files by path), removed by `close`.
 *
 * Throws a `NetcdfError`: `FileNotFound`; `InvalidFile` for a file that is
 * not netCDF (it says what it found), a CDF-5 file, or a damaged one;
 * `InvalidArgument` for options that are not {@link OpenNetcdfOptions}.
 *
 * @example
 * const file = await openNetcdf("sst.nc");
 * const first = await file.read("sst", { time: [0, 4] });
 * for await (const row of file.chunks({ time: 4 })) console.log(row.globalAttr("chunk_offset"));
 * await file.close();
 */
export async function openNetcdf(
  source: string | Uint8Array | ByteSource,
  options: OpenNetcdfOptions = {},
): Promise<NetcdfFile> {
  const parsed = parseOptions(
    openOptionsSchema,
    options,
    "openNetcdf",
    netcdfOptionsError(typeof source === "string" ? source : isByteSource(source) ? source.label : "<bytes>"),
  );
  const bytes = await openSource(source);
  let raw: RawFile | undefined;
  let byteText: ReadonlySet<string>;
  let temporary: string | undefined;
  let format: NetcdfFormat | undefined;
  try {
    format = detectFormat(await bytes.read(0, 8), bytes.label);
    const group = (parsed.group ?? "").replace(/^\/+|\/+$/g, "");
    if (format !== "netcdf4") {
      if (group !== "")
        throw new NetcdfError("GroupNotFound", `${bytes.label}: no group "${group}": a ${format} file has no groups`, {
          path: bytes.label,
        });
      raw = await openClassic(bytes);
    } else {
      // h5wasm opens real files only: bytes, and a file at a URL, go through a temporary file (a URL source
      // that already keeps the whole file a server sent gives that file's path, so it is not copied again).
      let path = bytes.path;
      if (path === undefined) {
        temporary = temporaryCopyPath();
        if (source instanceof Uint8Array) await writeFile(temporary, source);
        else await copyToFile(bytes, temporary);
        path = temporary;
      }
      raw = await openHdf5(path, bytes.label, group, parsed.group !== undefined);
    }
    byteText = await byteTextVariables(raw);
  } catch (err) {
    await raw?.close().catch(() => {});
    await bytes.close().catch(() => {});
    if (temporary !== undefined) await rm(temporary, { force: true });
    throw err;
  }
  const file = new LazyFile(bytes.label, raw, parsed.storageAttrs ?? true, byteText);
  if (format === "netcdf4") {
    // The file h5wasm reads (the source's own, or the copy) stays until the file closes.
    const copy = temporary;
    const close = file.close.bind(file);
    file.close = async () => {
      await close();
      await bytes.close();
      if (copy !== undefined) await rm(copy, { force: true });
    };
  }
  return file;
}
