/**
 * The netCDF data model as the format readers see it, before it becomes nd-arrow:
 * variables with their netCDF type, dims, raw stored values and attributes.
 */
import type { NumericArray } from "@lance-nd/casting";

/** The netCDF external types (netCDF-3 has byte..double and char). */
export type NcType =
  | "byte"
  | "ubyte"
  | "short"
  | "ushort"
  | "int"
  | "uint"
  | "int64"
  | "uint64"
  | "float"
  | "double"
  | "char"
  | "string";

/** A typed array of one of the numeric netCDF types (re-exported for this package's readers and writers). */
export type { NumericArray };

/** Strings as UTF-8 bytes with Arrow-style offsets (`offsets.length = length + 1`). */
export interface Utf8Values {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
  /** Arrow's validity bitmap when some values are null (NIL NC_STRING values), with their count. */
  readonly nulls?: { readonly bitmap: Uint8Array; readonly count: number };
}

/** One attribute: numbers as a typed array, text as strings (netCDF attributes are 1-D; a NIL NC_STRING is `null`). */
export interface RawAttr {
  readonly name: string;
  readonly type: NcType;
  readonly value: NumericArray | readonly (string | null)[];
  /** A char attribute whose bytes are not UTF-8: `value` is those bytes read as Latin-1 (README, "Conformance"). */
  readonly latin1?: true;
}

/** A dimension of a file, with whether it is unlimited (netCDF-3's record dim, netCDF-4's growable dims). */
export interface NetcdfDim {
  readonly name: string;
  readonly size: number;
  readonly unlimited: boolean;
}

/** How a netCDF-4 variable is compressed (filters in HDF5 order; deflate is zlib). */
export interface NetcdfCompression {
  /** `deflate`, `zstd`, `szip`, ... or `filter-<id>` for another HDF5 filter. */
  readonly codec: string;
  /** The codec's level, when it has one. */
  readonly level?: number;
  /** True when the shuffle filter runs first. */
  readonly shuffle: boolean;
}

/** One variable as a file stores it (a char variable keeps its last, char dim here). */
export interface RawVariable {
  readonly name: string;
  readonly type: NcType;
  readonly dims: readonly { readonly name: string; readonly size: number }[];
  readonly attrs: readonly RawAttr[];
  /** Chunk sizes of a chunked netCDF-4 variable; `null` when contiguous (always for netCDF-3). */
  readonly chunking: readonly number[] | null;
  /** Compression of a netCDF-4 variable; `null` when none. */
  readonly compression: NetcdfCompression | null;
}

/** What a slab read returns: numbers, char bytes, or NC_STRING strings (`null` a NIL string). */
export type SlabValues =
  | NumericArray
  | { readonly chars: Uint8Array }
  | { readonly strings: readonly (string | null)[] };

/** A file as the format readers see it: the header, and slabs read on demand. */
export interface RawFile {
  readonly format: "classic" | "64bit-offset" | "netcdf4";
  readonly dims: readonly NetcdfDim[];
  readonly variables: readonly RawVariable[];
  readonly globalAttrs: readonly RawAttr[];
  /** Every group of the file below the root, by path (`"g1"`, `"g1/g2"`); none in a classic file. */
  readonly groups?: readonly string[];
  /** Things left out, e.g. groups, one sentence each naming the file. */
  readonly warnings: readonly string[];
  /** `count[i]` values from `start[i]` along each stored dim, row-major. */
  readSlab(variable: RawVariable, start: readonly number[], count: readonly number[]): Promise<SlabValues>;
  close(): Promise<void>;
}

/** Thrown when char bytes are not UTF-8 text: `index` is the string (row), `byte` the offset of the bad byte in it. */
export class NotUtf8 extends Error {
  constructor(
    readonly index: number,
    readonly byte: number,
    readonly value: number,
  ) {
    super(`byte 0x${value.toString(16).padStart(2, "0")} at offset ${byte} of string ${index} is not UTF-8`);
  }
}

/**
 * Fixed-width char rows (`count` rows of `width` bytes) to UTF-8 strings:
 * each row without its trailing NUL padding, NULs inside a row kept (as
 * netCDF-C gives them back). {@link NotUtf8} when a row is not UTF-8.
 */
export function utf8FromCharRows(chars: Uint8Array, count: number, width: number): Utf8Values {
  return unpaddedCharRows(chars, count, width, (row, text) => {
    const bad = invalidUtf8At(text);
    if (bad >= 0) throw new NotUtf8(row, bad, text[bad]!);
  });
}

/**
 * Fixed-width char rows (`count` rows of `width` bytes) as variable-length
 * values, each without its trailing NUL padding; `check` sees each row first.
 */
export function unpaddedCharRows(
  chars: Uint8Array,
  count: number,
  width: number,
  check?: (row: number, text: Uint8Array) => void,
): Utf8Values {
  const offsets = new Int32Array(count + 1);
  const bytes = new Uint8Array(count * width);
  let end = 0;
  for (let row = 0; row < count; row++) {
    const start = row * width;
    let len = width;
    while (len > 0 && chars[start + len - 1] === 0) len--;
    const text = chars.subarray(start, start + len);
    check?.(row, text);
    bytes.set(text, end);
    end += len;
    offsets[row + 1] = end;
  }
  return { offsets, bytes: bytes.subarray(0, end) };
}

/** The message of text at `where` that is not UTF-8: `value` is the first bad byte, `at` where it is. */
export function notUtf8Message(where: string, value: number, at: string): string {
  const hex = value.toString(16).padStart(2, "0");
  return `${where} is not UTF-8 text (byte 0x${hex} at ${at}); text is stored as UTF-8: convert it first`;
}

/**
 * A char attribute of these bytes, every byte kept (NULs too): UTF-8 text,
 * or, when the bytes are not UTF-8, the bytes read as Latin-1 (one
 * character a byte, U+0000..U+00FF) and marked `latin1`, so that writers
 * give back the bytes ({@link latin1Bytes}).
 */
export function charAttr(name: string, bytes: Uint8Array): RawAttr {
  if (invalidUtf8At(bytes) < 0) return { name, type: "char", value: [new TextDecoder().decode(bytes)] };
  return { name, type: "char", value: [String.fromCharCode(...bytes)], latin1: true };
}

/** The bytes of text read as Latin-1 by {@link charAttr}: each character's code, one byte. */
export function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
export function invalidUtf8At(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The lead byte gives the length and the range of the second byte (no overlongs, surrogates or > U+10FFFF).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > n) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

/** JS strings to UTF-8 bytes with offsets; `null` (a NIL string) a null value. */
export function utf8FromStrings(strings: readonly (string | null)[]): Utf8Values {
  const encoder = new TextEncoder();
  const offsets = new Int32Array(strings.length + 1);
  let bytes = new Uint8Array(strings.reduce((n, s) => n + (s?.length ?? 0), 0) * 3);
  let end = 0;
  let nullCount = 0;
  const bitmap = new Uint8Array(Math.ceil(strings.length / 8)).fill(0xff);
  strings.forEach((s, i) => {
    if (s === null) {
      nullCount++;
      bitmap[i >> 3]! &= ~(1 << (i & 7));
    } else end += encoder.encodeInto(s, bytes.subarray(end)).written;
    offsets[i + 1] = end;
  });
  bytes = bytes.subarray(0, end);
  return nullCount === 0 ? { offsets, bytes } : { offsets, bytes, nulls: { bitmap, count: nullCount } };
}
