/**
 * The bytes of a netCDF-3 file as the netCDF classic format specification
 * lays them out (the writer's side of classic-header.ts): the header, and
 * values big-endian.
 */
import { NC_ATTRIBUTE, NC_DIMENSION, NC_VARIABLE, TYPES, fromBigEndian, pad } from "./classic-header.js";
import type { ClassicType } from "./classic-header.js";
import type { NumericArray } from "./raw.js";
import { CharBytes } from "./stored.js";
import type { AttrValue } from "./stored.js";

/** The classic type of each typed array (the others have no classic type). */
export const TYPE_OF: Record<string, Exclude<ClassicType, "char">> = {
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

/** A variable as the header describes it. */
export interface HeaderVariable {
  readonly name: string;
  readonly type: ClassicType;
  readonly dimIds: readonly number[];
  readonly attrs: ReadonlyMap<string, AttrValue>;
  /** Bytes of the whole variable, or of one record of a record variable (unpadded). */
  readonly size: number;
  /** Byte offset of its data (of its first record for a record variable). */
  readonly begin: number;
}

/** Native-endian values as a big-endian copy (the byte swap is its own inverse). */
export function bigEndian(values: NumericArray, type: Exclude<ClassicType, "char">): Uint8Array {
  const copy = new Uint8Array(values.byteLength);
  copy.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  if (type !== "byte") fromBigEndian(copy, type);
  return copy;
}

/** The header's bytes for the planned layout (variables' `begin` as set). */
export function encodeHeader(
  format: "classic" | "64bit-offset",
  dims: readonly { name: string; size: number }[],
  recordDim: number,
  globals: ReadonlyMap<string, AttrValue>,
  variables: readonly HeaderVariable[],
): Uint8Array {
  const header = new HeaderWriter();
  header.magic(format === "classic" ? 1 : 2);
  header.u32(recordDim >= 0 ? dims[recordDim]!.size : 0);
  header.list(NC_DIMENSION, dims, (d, i) => {
    header.name(d.name);
    header.u32(i === recordDim ? 0 : d.size);
  });
  header.attrs(globals);
  header.list(NC_VARIABLE, variables, (v) => {
    header.name(v.name);
    header.u32(v.dimIds.length);
    for (const id of v.dimIds) header.u32(id);
    header.attrs(v.attrs);
    header.u32(CODE_OF[v.type]);
    header.u32(Math.min(pad(v.size), 2 ** 32 - 1));
    if (format === "64bit-offset") header.u32(Math.floor(v.begin / 2 ** 32));
    header.u32(v.begin % 2 ** 32);
  });
  return header.bytes();
}

/** The header written in order: the classic format's big-endian integers, padded bytes, names and tagged lists. */
class HeaderWriter {
  private readonly parts: number[] = [];

  /** `CDF` and the version byte (1 classic, 2 64-bit offset). */
  magic(version: 1 | 2): void {
    this.parts.push(0x43, 0x44, 0x46, version);
  }

  u32(v: number): void {
    this.parts.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
  }

  /** `b`, padded with zeros to a multiple of 4. */
  padded(b: Uint8Array): void {
    for (const x of b) this.parts.push(x);
    for (let i = b.length; i < pad(b.length); i++) this.parts.push(0);
  }

  /** A name: its length, then its UTF-8 bytes padded to 4. */
  name(text: string): void {
    const b = new TextEncoder().encode(text);
    this.u32(b.length);
    this.padded(b);
  }

  /** A list tagged `tag` of `items`, each written by `item`; an empty list is absent (two zeros). */
  list<T>(tag: number, items: readonly T[], item: (value: T, index: number) => void): void {
    if (items.length === 0) {
      this.u32(0);
      this.u32(0);
      return;
    }
    this.u32(tag);
    this.u32(items.length);
    items.forEach(item);
  }

  /** An attribute list: text (a string or char bytes) as char, numbers as their classic type. */
  attrs(attrs: ReadonlyMap<string, AttrValue>): void {
    this.list(NC_ATTRIBUTE, [...attrs], ([key, value]) => {
      this.name(key);
      if (typeof value === "string" || value instanceof CharBytes) {
        const b = typeof value === "string" ? new TextEncoder().encode(value) : value.bytes;
        this.u32(CODE_OF.char);
        this.u32(b.length);
        this.padded(b);
      } else {
        const type = TYPE_OF[value.constructor.name]!;
        this.u32(CODE_OF[type]);
        this.u32(value.length);
        this.padded(bigEndian(value as NumericArray, type));
      }
    });
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}
