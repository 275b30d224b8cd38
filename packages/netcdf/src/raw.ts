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
}

/** One attribute: numbers as a typed array, text as strings (netCDF attributes are 1-D). */
export interface RawAttr {
  readonly name: string;
  readonly type: NcType;
  readonly value: NumericArray | readonly string[];
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

/** What a slab read returns: numbers, char bytes, or NC_STRING strings. */
export type SlabValues = NumericArray | { readonly chars: Uint8Array } | { readonly strings: readonly string[] };

/** A file as the format readers see it: the header, and slabs read on demand. */
export interface RawFile {
  readonly format: "classic" | "64bit-offset" | "netcdf4";
  readonly dims: readonly NetcdfDim[];
  readonly variables: readonly RawVariable[];
  readonly globalAttrs: readonly RawAttr[];
  /** Things left out, e.g. groups, one sentence each naming the file. */
  readonly warnings: readonly string[];
  /** `count[i]` values from `start[i]` along each stored dim, row-major. */
  readSlab(variable: RawVariable, start: readonly number[], count: readonly number[]): Promise<SlabValues>;
  close(): Promise<void>;
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
