/**
 * The netCDF data model as the readers see it, before it becomes nd-arrow:
 * variables with their netCDF type, dims, raw stored values and attributes.
 */

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

/** A typed array of one of the numeric netCDF types. */
export type NumericArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

/** Strings as UTF-8 bytes with Arrow-style offsets (`offsets.length = length + 1`). */
export interface Utf8Values {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

/** One attribute: numbers as a typed array, text as strings (netCDF attributes are 1-D). */
export interface RawAttr {
  readonly name: string;
  readonly type: NcType;
  readonly value: NumericArray | readonly string[];
}

/** One variable with its dims (after collapsing the last dim of a char array). */
export interface RawVariable {
  readonly name: string;
  readonly type: NcType;
  readonly dims: readonly { readonly name: string; readonly size: number }[];
  readonly values: NumericArray | Utf8Values;
  readonly attrs: readonly RawAttr[];
}

/** What a reader returns for one file. */
export interface RawDataset {
  readonly variables: RawVariable[];
  readonly globalAttrs: RawAttr[];
  readonly warnings: string[];
}

/** True for the string payload of a {@link RawVariable}. */
export function isUtf8Values(values: NumericArray | Utf8Values): values is Utf8Values {
  return "offsets" in values;
}

/**
 * Fixed-width char rows (`count` rows of `width` bytes) to UTF-8 strings, as
 * netCDF does: each row ends at its first NUL byte.
 */
export function utf8FromCharRows(chars: Uint8Array, count: number, width: number): Utf8Values {
  const offsets = new Int32Array(count + 1);
  const bytes = new Uint8Array(count * width);
  let end = 0;
  for (let row = 0; row < count; row++) {
    const start = row * width;
    let len = 0;
    while (len < width && chars[start + len] !== 0) len++;
    bytes.set(chars.subarray(start, start + len), end);
    end += len;
    offsets[row + 1] = end;
  }
  return { offsets, bytes: bytes.subarray(0, end) };
}

/** JS strings to UTF-8 bytes with offsets. */
export function utf8FromStrings(strings: readonly string[]): Utf8Values {
  const encoder = new TextEncoder();
  const offsets = new Int32Array(strings.length + 1);
  let bytes = new Uint8Array(strings.reduce((n, s) => n + s.length, 0) * 3);
  let end = 0;
  strings.forEach((s, i) => {
    end += encoder.encodeInto(s, bytes.subarray(end)).written;
    offsets[i + 1] = end;
  });
  bytes = bytes.subarray(0, end);
  return { offsets, bytes };
}
