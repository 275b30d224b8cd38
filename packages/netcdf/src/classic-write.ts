/**
 * One NdRecordBatch to a netCDF-3 file, classic (`CDF\x01`, 32-bit offsets)
 * or 64-bit offset (`CDF\x02`), laid out as the netCDF classic format
 * specification says and `classic-header.ts` reads it: the header, the
 * fixed-size variables one after the other, then the records, each holding
 * one slab of every record variable; big-endian, 4-byte aligned.
 */
import { open } from "node:fs/promises";
import type { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { bigEndian, encodeHeader, TYPE_OF } from "./classic-encode.js";
import type { HeaderVariable } from "./classic-encode.js";
import { WIDTH, pad } from "./classic-header.js";
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

/** One variable as the file stores it. */
interface Planned extends HeaderVariable {
  /** The values as big-endian bytes, all records for a record variable. */
  readonly bytes: Uint8Array;
  readonly record: boolean;
  begin: number;
}

/** Where the data goes: the variables in file order and the bytes of one record. */
interface DataLayout {
  readonly fixed: readonly Planned[];
  readonly records: readonly Planned[];
  /** Bytes of one record (all record variables' slabs). */
  readonly recordSize: number;
  /** Where the fixed data (with its padding) ends. */
  readonly fixedEnd: number;
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
  const record = recordDim < 0 ? undefined : { id: recordDim, name: dims[recordDim]!.name };
  const variables = batch
    .arrays()
    .map(([name, array]) => planVariable(path, name, array, stored.get(name)!, dimId, record, options.format, invalid));
  const globals = checkedAttrs(path, undefined, attrValues(batch.globalAttrs), options.format);
  const header = (): Uint8Array => encodeHeader(options.format, dims, recordDim, globals, variables);
  const layout = placeData(variables, header().length);
  const lastBegin = Math.max(0, ...variables.map((v) => v.begin));
  if (options.format === "classic" && lastBegin > 2 ** 31 - 1)
    throw invalid("the data passes 2 GiB, past a classic file's 32-bit offsets (write format 64bit-offset)");
  await writeData(path, header(), layout, recordDim >= 0 ? dims[recordDim]!.size : 0);
}

/**
 * One array as the file stores it: its dims by id, its classic type and
 * big-endian bytes, its attributes checked. `InvalidArgument` when it has the
 * record dim but not first; `UnsupportedType` for a type (or NC_STRING text)
 * the classic format has not.
 */
function planVariable(
  path: string,
  name: string,
  array: NdArray,
  values: Stored,
  dimId: ReadonlyMap<string, number>,
  recordDim: { id: number; name: string } | undefined,
  format: ClassicWriteOptions["format"],
  invalid: (message: string, variable?: string) => NetcdfError,
): Planned {
  const char = values.kind === "numeric" ? undefined : charLayoutOf(array);
  const names = char?.names ?? array.dimNames;
  const shape = char?.shape ?? array.shape;
  const ids = names.map((d) => dimId.get(d)!);
  const record = recordDim !== undefined && ids.includes(recordDim.id);
  if (record && ids[0] !== recordDim.id)
    throw invalid(`variable "${name}" has the unlimited dim "${recordDim.name}" but not first`, name);
  let type: ClassicType;
  let bytes: Uint8Array;
  if (values.kind !== "numeric") {
    if (char === undefined) throw unsupported(path, name, "NC_STRING values", format);
    type = "char";
    bytes = charBytes(values.data, char.width);
  } else {
    const numeric = classicType(path, name, values.data, format);
    type = numeric;
    bytes = bigEndian(values.data, numeric);
  }
  // One record's values (or the whole variable's) from the shape: with zero records there are no bytes to divide.
  const size = (record ? shape.slice(1) : shape).reduce((n, s) => n * s, WIDTH[type]);
  const attrs = checkedAttrs(path, name, variableAttrs(array, values), format);
  return { name, type, dimIds: ids, attrs, bytes, record, size, begin: 0 };
}

/**
 * Sets each variable's `begin`: after the header (`headerBytes`), the fixed
 * variables one after the other, each padded to 4, then the first record,
 * one slab of each record variable.
 */
function placeData(variables: readonly Planned[], headerBytes: number): DataLayout {
  let at = headerBytes;
  const fixed = variables.filter((v) => !v.record);
  const records = variables.filter((v) => v.record);
  for (const v of fixed) {
    v.begin = at;
    at += pad(v.size);
  }
  const fixedEnd = at;
  // One record variable alone is not padded per record (the classic format's special case).
  const recordSize = records.length === 1 ? records[0]!.size : records.reduce((n, v) => n + pad(v.size), 0);
  for (const v of records) {
    v.begin = at;
    at += records.length === 1 ? v.size : pad(v.size);
  }
  return { fixed, records, recordSize, fixedEnd };
}

/** Writes the header and the data as `layout` places it; `WriteFailed` naming the variable being written. */
async function writeData(path: string, header: Uint8Array, layout: DataLayout, numRecords: number): Promise<void> {
  const { fixed, records, recordSize, fixedEnd } = layout;
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
    await file.write(header, 0, undefined, 0);
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
    await file.truncate(records.length > 0 ? records[0]!.begin + numRecords * recordSize : fixedEnd);
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
