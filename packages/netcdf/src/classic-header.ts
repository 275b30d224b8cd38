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
  const header = new HeaderReader(bytes);
  header.need(8);
  const numRecords = header.u32();
  const { dims, recordDim } = readDims(header);
  const globalAttrs = header.attrs();
  const variables = readVariables(header, dims.length);
  return {
    version: header.version,
    numRecords: numRecords === 0xffffffff ? -1 : numRecords,
    dims,
    recordDim,
    globalAttrs,
    variables,
  };
}

/** The dim list: each dim's name and size; the record dim is the one of size 0. */
function readDims(header: HeaderReader): { dims: { name: string; size: number }[]; recordDim: number } {
  const dims: { name: string; size: number }[] = [];
  let recordDim = -1;
  const nDims = header.list(NC_DIMENSION, "dimension");
  for (let i = 0; i < nDims; i++) {
    const dimName = header.name();
    const size = header.u32();
    if (size === 0) recordDim = i;
    dims.push({ name: dimName, size });
  }
  return { dims, recordDim };
}

/** The variable list; a dim id past the `dimCount` dims is malformed. */
function readVariables(header: HeaderReader, dimCount: number): ClassicVariable[] {
  const variables: ClassicVariable[] = [];
  const nVars = header.list(NC_VARIABLE, "variable");
  for (let i = 0; i < nVars; i++) {
    const varName = header.name();
    const rank = header.u32();
    const dimIds: number[] = [];
    for (let d = 0; d < rank; d++) {
      const id = header.u32();
      if (id >= dimCount) throw new Error(`variable "${varName}" uses dim id ${id}, but the file has ${dimCount} dims`);
      dimIds.push(id);
    }
    const varAttrs = header.attrs();
    const t = header.type();
    const vsize = header.u32();
    variables.push({ name: varName, dimIds, attrs: varAttrs, type: t, vsize, begin: header.offset() });
  }
  return variables;
}

/**
 * The header's bytes read in order from after the magic number: the
 * classic format's big-endian integers, padded names, tagged lists, types
 * and attributes. Reading past the bytes throws {@link NeedMoreBytes}.
 */
class HeaderReader {
  /** 1: classic (32-bit offsets), 2: 64-bit offset. */
  readonly version: 1 | 2;
  private readonly view: DataView;
  private at = 4;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.version = bytes[3] as 1 | 2;
  }

  /** Throws {@link NeedMoreBytes} unless `n` more bytes are there. */
  need(n: number): void {
    if (this.at + n > this.bytes.length) throw new NeedMoreBytes();
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.at);
    this.at += 4;
    return v;
  }

  /** A data offset: 32 bits in a classic file, 64 in a 64-bit offset one. */
  offset(): number {
    if (this.version === 1) return this.u32();
    const hi = this.u32();
    return hi * 2 ** 32 + this.u32();
  }

  /** A name: its length, then its UTF-8 bytes padded to 4. */
  name(): string {
    const n = this.u32();
    this.need(pad(n));
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + n));
    this.at += pad(n);
    return text;
  }

  /** The length of the list tagged `tag` (`what` names it in the error); 0 for an absent list. */
  list(tag: number, what: string): number {
    const t = this.u32();
    const n = this.u32();
    if (t === 0 && n === 0) return 0;
    if (t !== tag) throw new Error(`expected the ${what} list (tag ${tag}) at byte ${this.at - 8}, found tag ${t}`);
    return n;
  }

  type(): ClassicType {
    const t = this.u32();
    const found = TYPES[t];
    if (found === undefined) throw new Error(`unknown netCDF-3 type ${t} at byte ${this.at - 4}`);
    return found;
  }

  /** An attribute list: each attribute's name, type and values (char ones as text). */
  attrs(): RawAttr[] {
    const out: RawAttr[] = [];
    const n = this.list(NC_ATTRIBUTE, "attribute");
    for (let i = 0; i < n; i++) {
      const key = this.name();
      const t = this.type();
      const count = this.u32();
      const size = count * WIDTH[t];
      this.need(pad(size));
      const raw = new Uint8Array(this.bytes.subarray(this.at, this.at + size));
      this.at += pad(size);
      if (t === "char") out.push(charAttr(key, raw));
      else out.push({ name: key, type: t, value: fromBigEndian(raw, t) });
    }
    return out;
  }
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
