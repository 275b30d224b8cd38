/**
 * One NdRecordBatch to a netCDF-3 file, classic (`CDF\x01`, 32-bit offsets)
 * or 64-bit offset (`CDF\x02`), laid out as the netCDF classic format
 * specification says and `classic-header.ts` reads it: the header, the
 * fixed-size variables one after the other, then the records, each holding
 * one slab of every record variable; big-endian, 4-byte aligned.
 */
import { open } from "node:fs/promises";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { NC_ATTRIBUTE, NC_DIMENSION, NC_VARIABLE, TYPES, WIDTH, fromBigEndian, pad } from "./classic-header.js";
import type { ClassicType } from "./classic-header.js";
import { NetcdfError } from "./netcdf-error.js";
import type { NumericArray } from "./raw.js";
import { attrValues, charBytes, charLayoutOf, fileDims, variableAttrs } from "./stored.js";
import { CharBytes } from "./stored.js";
import type { AttrValue, Stored } from "./stored.js";

/** The format and the unlimited dim (at most one) of a classic write. */
export interface ClassicWriteOptions {
  format: "classic" | "64bit-offset";
  unlimited: readonly string[];
}

/** The classic type of each typed array (the others have no classic type). */
const TYPE_OF: Record<string, Exclude<ClassicType, "char">> = {
  Int8Array: "byte",
  Int16Array: "short",
  Int32Array: "int",
  Float32Array: "float",
  Float64Array: "double",
};

const CODE_OF = Object.fromEntries(Object.entries(TYPES).map(([code, type]) => [type, Number(code)])) as Record<
  ClassicType,
  number
>;

/** One variable as the file stores it. */
interface Planned {
  name: string;
  type: ClassicType;
  dimIds: number[];
  attrs: Map<string, AttrValue>;
  /** The values as big-endian bytes, all records for a record variable. */
  bytes: Uint8Array;
  record: boolean;
  /** Bytes of the whole variable, or of one record of a record variable (unpadded). */
  size: number;
  begin: number;
}

/**
 * Writes `batch` (its values already as stored, `stored`) to a new netCDF-3
 * file at `path`. Dims come in the source's order (`_DimOrder`); the
 * unlimited dim is the record dim and must be the first dim of every
 * variable that has it. Throws a `NetcdfError`: `UnsupportedType` for a value
 * or attribute type the classic format has no type for (unsigned, 64-bit,
 * NC_STRING: write netCDF-4), `InvalidArgument` for several unlimited dims, a
 * record dim that is not first, a fixed dim of length 0, or a 32-bit offset overflow (use
 * `64bit-offset`), `WriteFailed` when the file cannot be written.
 */
export async function writeClassic(
  path: string,
  batch: NdRecordBatch,
  stored: ReadonlyMap<string, Stored>,
  options: ClassicWriteOptions,
): Promise<void> {
  const invalid = (message: string, variable?: string): NetcdfError =>
    new NetcdfError("InvalidArgument", `${path}: ${message}`, { path, variable });
  if (options.unlimited.length > 1)
    throw invalid(`a ${options.format} file has one unlimited dim, not ${options.unlimited.join(", ")}`);
  const dims = fileDims(batch);
  const recordDim = classicRecordDim(dims, batch, options.unlimited[0], invalid);
  const dimId = new Map(dims.map((d, i) => [d.name, i]));
  const variables: Planned[] = [];
  for (const [name, array] of batch.arrays()) {
    const values = stored.get(name)!;
    const char = values.kind === "numeric" ? undefined : charLayoutOf(array);
    const names = char?.names ?? array.dimNames;
    const shape = char?.shape ?? array.shape;
    const ids = names.map((d) => dimId.get(d)!);
    const record = recordDim >= 0 && ids.includes(recordDim);
    if (record && ids[0] !== recordDim)
      throw invalid(`variable "${name}" has the unlimited dim "${dims[recordDim]!.name}" but not first`, name);
    let type: ClassicType;
    let bytes: Uint8Array;
    if (values.kind !== "numeric") {
      if (char === undefined) throw unsupported(path, name, "NC_STRING values", options.format);
      type = "char";
      bytes = charBytes(values.data, char.width);
    } else {
      const numeric = classicType(path, name, values.data, options.format);
      type = numeric;
      bytes = bigEndian(values.data, numeric);
    }
    // One record's values (or the whole variable's) from the shape: with zero records there are no bytes to divide.
    const size = (record ? shape.slice(1) : shape).reduce((n, s) => n * s, WIDTH[type]);
    variables.push({
      name,
      type,
      dimIds: ids,
      attrs: checkedAttrs(path, name, variableAttrs(array, values), options.format),
      bytes,
      record,
      size,
      begin: 0,
    });
  }
  const globals = checkedAttrs(path, undefined, attrValues(batch.globalAttrs), options.format);
  const offsetBytes = options.format === "classic" ? 4 : 8;
  const header = (): Uint8Array => encodeHeader(options, dims, recordDim, globals, variables, offsetBytes);
  let at = header().length;
  const fixed = variables.filter((v) => !v.record);
  const records = variables.filter((v) => v.record);
  for (const v of fixed) {
    v.begin = at;
    at += pad(v.size);
  }
  // One record variable alone is not padded per record (the classic format's special case).
  const recordSize = records.length === 1 ? records[0]!.size : records.reduce((n, v) => n + pad(v.size), 0);
  for (const v of records) {
    v.begin = at;
    at += records.length === 1 ? v.size : pad(v.size);
  }
  const lastBegin = Math.max(0, ...variables.map((v) => v.begin));
  if (offsetBytes === 4 && lastBegin > 2 ** 31 - 1)
    throw invalid("the data passes 2 GiB, past a classic file's 32-bit offsets (write format 64bit-offset)");
  const numRecords = recordDim >= 0 ? dims[recordDim]!.size : 0;
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "w");
  } catch (cause) {
    throw new NetcdfError("WriteFailed", `${path}: cannot create the file (${(cause as Error).message})`, {
      path,
      cause,
    });
  }
  let current: string | undefined;
  try {
    await file.write(header(), 0, undefined, 0);
    for (const v of fixed) {
      current = v.name;
      await file.write(v.bytes, 0, v.bytes.length, v.begin);
    }
    for (let r = 0; r < numRecords; r++) {
      for (const v of records) {
        current = v.name;
        await file.write(v.bytes, r * v.size, v.size, v.begin + r * recordSize);
      }
    }
    // The file ends after the last record, or after the last fixed variable's padding.
    await file.truncate(records.length > 0 ? records[0]!.begin + numRecords * recordSize : at);
  } catch (cause) {
    throw new NetcdfError(
      "WriteFailed",
      `${path}:${current === undefined ? "" : ` variable "${current}":`} cannot write (${(cause as Error).message})`,
      { path, variable: current, cause },
    );
  } finally {
    await file.close();
  }
}

/**
 * The index of the record dim among `dims` (-1: none): the unlimited dim
 * asked for, else a dim of length 0 that comes first in every variable of it
 * (a classic header says length 0 only of the record dim, so such a dim
 * becomes it). Any other dim of length 0 is `InvalidArgument`.
 */
function classicRecordDim(
  dims: readonly { name: string; size: number }[],
  batch: NdRecordBatch,
  unlimited: string | undefined,
  invalid: (message: string) => NetcdfError,
): number {
  const asked = dims.findIndex((d) => d.name === unlimited);
  const empty = dims.filter((d, i) => d.size === 0 && i !== asked);
  if (empty.length === 0) return asked;
  const firstEverywhere = (dim: string): boolean =>
    [...batch.arrays()].every(([, array]) => !array.dimNames.includes(dim) || array.dimNames[0] === dim);
  if (asked < 0 && empty.length === 1 && firstEverywhere(empty[0]!.name))
    return dims.findIndex((d) => d.name === empty[0]!.name);
  const dim = empty.find((d) => !firstEverywhere(d.name)) ?? empty.at(-1)!;
  throw invalid(
    `dim "${dim.name}" has length 0, which a classic file can hold only as its unlimited dim, first in every variable (write netCDF-4)`,
  );
}

function unsupported(path: string, name: string | undefined, what: string, format: string): NetcdfError {
  const where = name === undefined ? "a global attribute" : `"${name}"`;
  return new NetcdfError(
    "UnsupportedType",
    `${path}: ${where} holds ${what}, which a ${format} netCDF file cannot (write format netcdf4)`,
    { path, variable: name },
  );
}

/** The classic type of a typed array, or `UnsupportedType` (unsigned and 64-bit integers). */
function classicType(
  path: string,
  name: string | undefined,
  data: NumericArray,
  format: string,
): Exclude<ClassicType, "char"> {
  const type = TYPE_OF[data.constructor.name];
  if (type === undefined) throw unsupported(path, name, data.constructor.name.replace(/Array$/, ""), format);
  return type;
}

/** The attributes, checked: a classic file has no NC_STRING lists, unsigned or 64-bit attributes; one NC_STRING is char. */
function checkedAttrs(
  path: string,
  variable: string | undefined,
  attrs: Map<string, AttrValue>,
  format: string,
): Map<string, AttrValue> {
  for (const [key, value] of attrs) {
    const where = variable === undefined ? key : `${variable}.${key}`;
    // An NC_STRING attribute of one value is a char attribute here (a classic file has no NC_STRING).
    if (Array.isArray(value) && value.length === 1) {
      attrs.set(key, value[0] ?? "");
      continue;
    }
    if (Array.isArray(value)) throw unsupported(path, variable, `the string list attribute ${where}`, format);
    if (typeof value !== "string" && !(value instanceof CharBytes) && TYPE_OF[value.constructor.name] === undefined)
      throw unsupported(path, variable, `the ${value.constructor.name} attribute ${where}`, format);
  }
  return attrs;
}

/** Native-endian values as a big-endian copy (the byte swap is its own inverse). */
function bigEndian(values: NumericArray, type: Exclude<ClassicType, "char">): Uint8Array {
  const copy = new Uint8Array(values.byteLength);
  copy.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  if (type !== "byte") fromBigEndian(copy, type);
  return copy;
}

/** The header's bytes for the planned layout (variables' `begin` as set). */
function encodeHeader(
  options: ClassicWriteOptions,
  dims: readonly { name: string; size: number }[],
  recordDim: number,
  globals: ReadonlyMap<string, AttrValue>,
  variables: readonly Planned[],
  offsetBytes: number,
): Uint8Array {
  const parts: number[] = [];
  const u32 = (v: number): void => {
    parts.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
  };
  const bytes = (b: Uint8Array): void => {
    for (const x of b) parts.push(x);
    for (let i = b.length; i < pad(b.length); i++) parts.push(0);
  };
  const name = (text: string): void => {
    const b = new TextEncoder().encode(text);
    u32(b.length);
    bytes(b);
  };
  const attrs = (list: ReadonlyMap<string, AttrValue>): void => {
    if (list.size === 0) {
      u32(0);
      u32(0);
      return;
    }
    u32(NC_ATTRIBUTE);
    u32(list.size);
    for (const [key, value] of list) {
      name(key);
      if (typeof value === "string" || value instanceof CharBytes) {
        const b = typeof value === "string" ? new TextEncoder().encode(value) : value.bytes;
        u32(CODE_OF.char);
        u32(b.length);
        bytes(b);
      } else {
        const type = TYPE_OF[value.constructor.name]!;
        u32(CODE_OF[type]);
        u32(value.length);
        bytes(bigEndian(value as NumericArray, type));
      }
    }
  };
  parts.push(0x43, 0x44, 0x46, options.format === "classic" ? 1 : 2);
  u32(recordDim >= 0 ? dims[recordDim]!.size : 0);
  if (dims.length === 0) {
    u32(0);
    u32(0);
  } else {
    u32(NC_DIMENSION);
    u32(dims.length);
    dims.forEach((d, i) => {
      name(d.name);
      u32(i === recordDim ? 0 : d.size);
    });
  }
  attrs(globals);
  if (variables.length === 0) {
    u32(0);
    u32(0);
  } else {
    u32(NC_VARIABLE);
    u32(variables.length);
    for (const v of variables) {
      name(v.name);
      u32(v.dimIds.length);
      for (const id of v.dimIds) u32(id);
      attrs(v.attrs);
      u32(CODE_OF[v.type]);
      u32(Math.min(pad(v.size), 2 ** 32 - 1));
      if (offsetBytes === 8) u32(Math.floor(v.begin / 2 ** 32));
      u32(v.begin % 2 ** 32);
    }
  }
  return Uint8Array.from(parts);
}
