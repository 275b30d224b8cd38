/**
 * netCDF-3 (classic and 64-bit offset) reader: the header through netcdfjs,
 * the data read here as whole typed arrays (netcdfjs reads values one by one
 * into JS arrays, far too slow for large files).
 */
import { NetCDFReader } from "netcdfjs";
import { CliError } from "../errors.js";
import { utf8FromCharRows } from "./raw.js";
import type { NumericArray, RawAttr, RawDataset, RawVariable } from "./raw.js";

type ClassicType = "byte" | "char" | "short" | "int" | "float" | "double";

const WIDTH: Record<ClassicType, number> = { byte: 1, char: 1, short: 2, int: 4, float: 4, double: 8 };

/**
 * Reads a netCDF-3 file (CDF\x01 or CDF\x02) from its bytes; `path` names it
 * in errors. With `reuse`, the bytes are the caller's to give away: non-record
 * variables are byte-swapped in place and returned as views, without a copy.
 */
export function readClassic(bytes: Uint8Array, path: string, reuse = false): RawDataset {
  let reader: NetCDFReader;
  try {
    reader = new NetCDFReader(bytes);
  } catch (cause) {
    throw new CliError("InvalidFile", `${path}: not a readable netCDF-3 file (${errorText(cause)})`, { path, cause });
  }
  const header = reader.header;
  const dims = header.dimensions ?? [];
  const numRecords = header.recordDimension.length;
  const recordVars = (header.variables ?? []).filter((v) => v.record);
  // The record size is the sum of the (padded) record variable sizes, except
  // that a file with one record variable has no padding between records.
  const recordStep =
    recordVars.length === 1 ? unpaddedSize(recordVars[0]!, dims, true) : recordVars.reduce((n, v) => n + v.size, 0);

  const variables: RawVariable[] = (header.variables ?? []).map((v) => {
    const type = classicType(v.type, path, v.name);
    const varDims = v.dimensions.map((id) => {
      const dim = dims[id];
      if (dim === undefined) throw new CliError("InvalidFile", `${path}: variable "${v.name}" uses unknown dim id ${id}`);
      return { name: dim.name, size: v.record && id === header.recordDimension.id ? numRecords : dim.size };
    });
    const perRecord = unpaddedSize(v, dims, v.record);
    const count = v.record ? numRecords : 1;
    const step = v.record ? recordStep : perRecord;
    const end = v.offset + (count - 1) * step + perRecord;
    if (count > 0 && perRecord > 0 && end > bytes.length) {
      throw new CliError(
        "InvalidFile",
        `${path}: variable "${v.name}" ends at byte ${end} but the file has ${bytes.length} bytes (truncated file)`,
        { path, variable: v.name },
      );
    }
    const aligned = (bytes.byteOffset + v.offset) % (WIDTH[type] ?? 1) === 0;
    const raw =
      reuse && aligned && !v.record ? bytes.subarray(v.offset, v.offset + perRecord) : gather(bytes, v.offset, count, step, perRecord);
    const attrs = v.attributes.map((a: { name: string; type: string; value: unknown }) => classicAttr(a, path));
    if (type === "char") {
      const width = varDims.at(-1)?.size ?? 1;
      const outer = varDims.slice(0, -1);
      const rows = outer.reduce((n, d) => n * d.size, 1);
      return { name: v.name, type: "char", dims: outer, values: utf8FromCharRows(raw, rows, width), attrs };
    }
    return { name: v.name, type, dims: varDims, values: fromBigEndian(raw, type), attrs };
  });

  return { variables, globalAttrs: header.globalAttributes.map((a) => classicAttr(a, path)), warnings: [] };
}

/** Bytes of one record (or of the whole non-record variable), without padding. */
function unpaddedSize(
  v: { type: string; dimensions: number[]; name: string },
  dims: readonly { size: number }[],
  record: boolean,
): number {
  const ids = record ? v.dimensions.slice(1) : v.dimensions;
  const width = WIDTH[v.type as ClassicType] ?? 1;
  return ids.reduce((n, id) => n * (dims[id]?.size ?? 0), width);
}

/** Copies `count` runs of `size` bytes, `step` apart, into one buffer. */
function gather(bytes: Uint8Array, offset: number, count: number, step: number, size: number): Uint8Array {
  // A copy even when `bytes` is a Node Buffer, whose slice() is a view.
  if (count === 1) return new Uint8Array(bytes.subarray(offset, offset + size));
  const out = new Uint8Array(count * size);
  for (let i = 0; i < count; i++) out.set(bytes.subarray(offset + i * step, offset + i * step + size), i * size);
  return out;
}

/** Big-endian bytes (which may be overwritten) to a native typed array over them, swapped in place. */
function fromBigEndian(raw: Uint8Array, type: Exclude<ClassicType, "char">): NumericArray {
  const buffer = raw.buffer as ArrayBuffer;
  const n = raw.byteLength / WIDTH[type];
  if (type === "byte") return new Int8Array(buffer, raw.byteOffset, n);
  if (type === "short") {
    const u16 = new Uint16Array(buffer, raw.byteOffset, n);
    for (let i = 0; i < n; i++) {
      const x = u16[i]!;
      u16[i] = (x << 8) | (x >>> 8);
    }
    return new Int16Array(buffer, raw.byteOffset, n);
  }
  const words = raw.byteLength / 4;
  const u32 = new Uint32Array(buffer, raw.byteOffset, words);
  for (let i = 0; i < words; i++) {
    const x = u32[i]!;
    u32[i] = ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24);
  }
  if (type === "double") {
    for (let i = 0; i < words; i += 2) {
      const hi = u32[i]!;
      u32[i] = u32[i + 1]!;
      u32[i + 1] = hi;
    }
    return new Float64Array(buffer, raw.byteOffset, n);
  }
  return type === "int" ? new Int32Array(buffer, raw.byteOffset, n) : new Float32Array(buffer, raw.byteOffset, n);
}

function classicAttr(a: { name: string; type: string; value: unknown }, path: string): RawAttr {
  const type = classicType(a.type, path, a.name);
  if (type === "char") return { name: a.name, type: "char", value: [String(a.value)] };
  const list = Array.isArray(a.value) ? (a.value as number[]) : [a.value as number];
  switch (type) {
    // netcdfjs reads bytes as unsigned; netCDF-3 bytes are signed.
    case "byte":
      return { name: a.name, type: "byte", value: Int8Array.from(list, (x) => (x > 127 ? x - 256 : x)) };
    case "short":
      return { name: a.name, type: "short", value: Int16Array.from(list) };
    case "int":
      return { name: a.name, type: "int", value: Int32Array.from(list) };
    case "float":
      return { name: a.name, type: "float", value: Float32Array.from(list) };
    case "double":
      return { name: a.name, type: "double", value: Float64Array.from(list) };
  }
}

function classicType(type: string, path: string, name: string): ClassicType {
  if (type in WIDTH) return type as ClassicType;
  throw new CliError("InvalidFile", `${path}: "${name}" has an unknown netCDF-3 type "${type}"`, { path });
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
