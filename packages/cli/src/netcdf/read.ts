/**
 * netCDF files (netCDF-3 classic / 64-bit offset, netCDF-4 / HDF5) to one
 * NdRecordBatch, lossless: raw stored values, every attribute with its type.
 */
import { open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { makeData, Utf8, Vector } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import type { Attr } from "@lance-nd/nd-arrow";
import { CliError } from "../errors.js";
import { readClassic } from "./classic.js";
import { readHdf5 } from "./hdf5.js";
import { isUtf8Values } from "./raw.js";
import type { NcType, RawAttr, RawDataset, RawVariable, Utf8Values } from "./raw.js";

/** The on-disk format of a netCDF file, from its first bytes. */
export type NetcdfFormat = "classic" | "64bit-offset" | "netcdf4";

/** Options of {@link readNetcdf}. */
export interface ReadNetcdfOptions {
  /** Read only these variables (in file order); default: all. Unknown names are `InvalidArgument`. */
  variables?: readonly string[];
}

/** What {@link readNetcdf} returns. */
export interface NetcdfContents {
  /** Every variable as an NdArray, the file's global attributes as global attributes. */
  batch: NdRecordBatch;
  /** The format the file was read as. */
  format: NetcdfFormat;
  /** Things left out, e.g. groups, one sentence each naming the file. */
  warnings: string[];
}

const HDF5_MAGIC = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * Reads a netCDF file (a path, or its bytes) into one NdRecordBatch: each
 * variable becomes an NdArray with its netCDF dims and all its attributes
 * (`_FillValue`, `scale_factor`, `add_offset` stay attributes of their own
 * type; values are neither unpacked nor masked), the file's global attributes
 * become global attributes. Types: byte Int8, ubyte UInt8, short Int16,
 * ushort UInt16, int Int32, uint UInt32, int64 Int64, uint64 UInt64, float
 * Float32, double Float64, char arrays and NC_STRING Utf8 (the last dim of a
 * char array is the string length and goes away). Groups and
 * dimension-only scales are left out (groups with a warning).
 *
 * Throws a `CliError`: `FileNotFound`; `InvalidFile` for a file that is not
 * netCDF (says what it found), a CDF-5 file, or a damaged / truncated one;
 * `InvalidArgument` for an unknown name in `options.variables`.
 *
 * @example
 * const { batch, warnings } = await readNetcdf("sst.nc");
 * batch.get("sst")?.dims; // [{ name: "time", size: 12 }, { name: "lat", ... }, ...]
 */
export async function readNetcdf(
  source: string | Uint8Array,
  options: ReadNetcdfOptions = {},
): Promise<NetcdfContents> {
  const path = typeof source === "string" ? source : "<bytes>";
  const head = typeof source === "string" ? await readHead(source) : source.subarray(0, 8);
  const format = detectFormat(head, path);
  let raw: RawDataset;
  if (format === "netcdf4") {
    raw = typeof source === "string" ? await readHdf5(source) : await readHdf5Bytes(source);
  } else {
    raw = typeof source === "string" ? readClassic(await readFile(source), path, true) : readClassic(source, path);
  }
  return { batch: toBatch(raw, options, path), format, warnings: raw.warnings };
}

/** The format of a file from its first 8 bytes; `InvalidFile` when it is not netCDF. */
export function detectFormat(head: Uint8Array, path: string): NetcdfFormat {
  if (head[0] === 0x43 && head[1] === 0x44 && head[2] === 0x46) {
    if (head[3] === 1) return "classic";
    if (head[3] === 2) return "64bit-offset";
    if (head[3] === 5) {
      throw new CliError(
        "InvalidFile",
        `${path}: CDF-5 (64-bit data) netCDF files are not supported; convert it first, e.g. nccopy -k nc4 in.nc out.nc`,
        { path },
      );
    }
  }
  if (HDF5_MAGIC.every((b, i) => head[i] === b)) return "netcdf4";
  const shown = Array.from(head.subarray(0, 4), (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`)).join("");
  throw new CliError(
    "InvalidFile",
    `${path}: not a netCDF file (a netCDF-3 file starts with "CDF\\x01" or "CDF\\x02", a netCDF-4 file with "\\x89HDF"; this one starts with "${shown}")`,
    { path },
  );
}

async function readHead(path: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code === "ENOENT") throw new CliError("FileNotFound", `${path}: no such file`, { path, cause });
    throw new CliError("InvalidFile", `${path}: cannot open (${code ?? String(cause)})`, { path, cause });
  }
  try {
    const head = new Uint8Array(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    return head.subarray(0, bytesRead);
  } catch (cause) {
    throw new CliError("InvalidFile", `${path}: cannot read (${(cause as { code?: string }).code ?? String(cause)})`, { path, cause });
  } finally {
    await handle.close();
  }
}

/** h5wasm opens real files only: bytes go through a temporary file. */
async function readHdf5Bytes(bytes: Uint8Array): Promise<RawDataset> {
  const file = join(tmpdir(), `lance-nd-${randomUUID()}.nc`);
  await writeFile(file, bytes);
  try {
    const raw = await readHdf5(file);
    return { ...raw, warnings: raw.warnings.map((w) => w.replaceAll(file, "<bytes>")) };
  } catch (err) {
    if (err instanceof CliError) throw new CliError(err.code, err.message.replaceAll(file, "<bytes>"), { cause: err.cause });
    throw err;
  } finally {
    await rm(file, { force: true });
  }
}

function toBatch(raw: RawDataset, options: ReadNetcdfOptions, path: string): NdRecordBatch {
  let variables = raw.variables;
  if (options.variables !== undefined) {
    const known = new Set(variables.map((v) => v.name));
    const unknown = options.variables.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new CliError("InvalidArgument", `${path}: no variable ${unknown.map((n) => `"${n}"`).join(", ")} in the file (it has ${[...known].join(", ")})`, { path });
    }
    const wanted = new Set(options.variables);
    variables = variables.filter((v) => wanted.has(v.name));
  }
  try {
    return new NdRecordBatch(
      variables.map((v) => [v.name, toNdArray(v)] as const),
      attrsOf(raw.globalAttrs),
    );
  } catch (cause) {
    throw new CliError("InvalidFile", `${path}: does not fit the nd-arrow model (${(cause as Error).message})`, { path, cause });
  }
}

function toNdArray(v: RawVariable): NdArray {
  const values = isUtf8Values(v.values) ? utf8Vector(v.values) : v.values;
  return NdArray.from(values, { dims: v.dims, attrs: attrsOf(v.attrs) });
}

/** UTF-8 bytes with offsets as an Arrow Utf8 vector, no copy. */
function utf8Vector(values: Utf8Values): Vector {
  const data = makeData({
    type: new Utf8(),
    length: values.offsets.length - 1,
    valueOffsets: values.offsets,
    data: values.bytes,
  });
  return new Vector([data]);
}

const ATTR_HELPERS: Record<Exclude<NcType, "char" | "string">, (value: never) => Attr> = {
  byte: attr.int8,
  ubyte: attr.uint8,
  short: attr.int16,
  ushort: attr.uint16,
  int: attr.int32,
  uint: attr.uint32,
  int64: attr.int64,
  uint64: attr.uint64,
  float: attr.float32,
  double: attr.float64,
};

/** netCDF attributes (always 1-D) to nd-arrow ones: one value a scalar, several a list. */
function attrsOf(attrs: readonly RawAttr[]): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const a of attrs) {
    if (a.type === "char" || a.type === "string") {
      const strings = a.value as readonly string[];
      out.set(a.name, strings.length === 1 ? attr.utf8(strings[0]!) : attr.utf8(strings));
    } else {
      const helper = ATTR_HELPERS[a.type];
      const value = a.value as ArrayLike<number | bigint>;
      out.set(a.name, helper((value.length === 1 ? value[0] : value) as never));
    }
  }
  return out;
}
