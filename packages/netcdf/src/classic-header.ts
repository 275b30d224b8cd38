/**
 * The header of a netCDF-3 file (classic `CDF\x01` and 64-bit offset
 * `CDF\x02`), parsed from its first bytes as the netCDF classic format
 * specification lays it out: dims, global attributes, and each variable's
 * dims, attributes, type, size and offset of its data.
 */
import { charAttr } from "./raw.js";
import type { NcType, NumericArray, RawAttr } from "./raw.js";

/** One variable of the header, with where its data starts. */
export interface ClassicVariable {
  readonly name: string;
  readonly dimIds: readonly number[];
  readonly attrs: readonly RawAttr[];
  readonly type: ClassicType;
  /** Bytes per record (record variables) or of the whole variable, padded to 4. */
  readonly vsize: number;
  /** Byte offset of the data (of the first record for record variables). */
  readonly begin: number;
}

/** The parsed header. */
export interface ClassicHeader {
  readonly version: 1 | 2;
  /** The number of records; -1 when streaming (count it from the file size). */
  readonly numRecords: number;
  readonly dims: readonly { readonly name: string; readonly size: number }[];
  /** The index of the record (unlimited) dim, or -1. */
  readonly recordDim: number;
  readonly globalAttrs: readonly RawAttr[];
  readonly variables: readonly ClassicVariable[];
}

/** The six netCDF-3 types. */
export type ClassicType = Extract<NcType, "byte" | "char" | "short" | "int" | "float" | "double">;

/** The classic types by their codes in the header (`nc_type`). */
export const TYPES: Readonly<Record<number, ClassicType>> = {
  1: "byte",
  2: "char",
  3: "short",
  4: "int",
  5: "float",
  6: "double",
};

/** Bytes per value of each type. */
export const WIDTH: Record<ClassicType, number> = { byte: 1, char: 1, short: 2, int: 4, float: 4, double: 8 };

/** The tags of the header's dim, variable and attribute lists. */
export const NC_DIMENSION = 10;
export const NC_VARIABLE = 11;
export const NC_ATTRIBUTE = 12;

/** Thrown when the header runs past the bytes given: read more and parse again. */
export class NeedMoreBytes extends Error {}

/** Parses the header at the start of `bytes`; throws {@link NeedMoreBytes} when it is longer, `Error` when malformed. */
export function parseClassicHeader(bytes: Uint8Array): ClassicHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 4;
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new NeedMoreBytes();
  };
  const u32 = (): number => {
    need(4);
    const v = view.getUint32(at);
    at += 4;
    return v;
  };
  const version = bytes[3] as 1 | 2;
  const offset = (): number => {
    if (version === 1) return u32();
    const hi = u32();
    return hi * 2 ** 32 + u32();
  };
  const name = (): string => {
    const n = u32();
    need(pad(n));
    const text = new TextDecoder().decode(bytes.subarray(at, at + n));
    at += pad(n);
    return text;
  };
  const list = (tag: number, what: string): number => {
    const t = u32();
    const n = u32();
    if (t === 0 && n === 0) return 0;
    if (t !== tag) throw new Error(`expected the ${what} list (tag ${tag}) at byte ${at - 8}, found tag ${t}`);
    return n;
  };
  const type = (): ClassicType => {
    const t = u32();
    const found = TYPES[t];
    if (found === undefined) throw new Error(`unknown netCDF-3 type ${t} at byte ${at - 4}`);
    return found;
  };
  const attrs = (): RawAttr[] => {
    const out: RawAttr[] = [];
    const n = list(NC_ATTRIBUTE, "attribute");
    for (let i = 0; i < n; i++) {
      const key = name();
      const t = type();
      const count = u32();
      const size = count * WIDTH[t];
      need(pad(size));
      const raw = new Uint8Array(bytes.subarray(at, at + size));
      at += pad(size);
      if (t === "char") out.push(charAttr(key, raw));
      else out.push({ name: key, type: t, value: fromBigEndian(raw, t) });
    }
    return out;
  };
  need(8);
  const numRecordsRaw = u32();
  const dims: { name: string; size: number }[] = [];
  let recordDim = -1;
  const nDims = list(NC_DIMENSION, "dimension");
  for (let i = 0; i < nDims; i++) {
    const dimName = name();
    const size = u32();
    if (size === 0) recordDim = i;
    dims.push({ name: dimName, size });
  }
  const globalAttrs = attrs();
  const variables: ClassicVariable[] = [];
  const nVars = list(NC_VARIABLE, "variable");
  for (let i = 0; i < nVars; i++) {
    const varName = name();
    const rank = u32();
    const dimIds: number[] = [];
    for (let d = 0; d < rank; d++) {
      const id = u32();
      if (id >= dims.length)
        throw new Error(`variable "${varName}" uses dim id ${id}, but the file has ${dims.length} dims`);
      dimIds.push(id);
    }
    const varAttrs = attrs();
    const t = type();
    const vsize = u32();
    variables.push({ name: varName, dimIds, attrs: varAttrs, type: t, vsize, begin: offset() });
  }
  return {
    version,
    numRecords: numRecordsRaw === 0xffffffff ? -1 : numRecordsRaw,
    dims,
    recordDim,
    globalAttrs,
    variables,
  };
}

/** `n` rounded up to a multiple of 4: the header and the data are 4-byte aligned. */
export function pad(n: number): number {
  return Math.ceil(n / 4) * 4;
}

/** Big-endian bytes (a copy the caller gives away) to a native typed array over them, swapped in place. */
export function fromBigEndian(raw: Uint8Array, type: Exclude<ClassicType, "char">): NumericArray {
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
