/**
 * numpy byte strings (`|S<n>`) in and out of Zarr (README "Types"). A
 * `|S<n>` array reads as Binary with its width `n` in the attribute
 * `_CharDimSize` (the name `@lance-nd/netcdf` gives the string length of a
 * char array, README "Storage attributes": xarray stores `|S<n>` in netCDF
 * as a char array with a dim of that size) and its fill value as a Utf8
 * `_FillValue`. Writing gives a Binary array, or a Utf8 array read from a
 * char variable, that width back. While a chunk is written, its values are
 * Latin-1 strings (one character a byte), so chunks of byte strings are
 * placed and compared as chunks of text are.
 */
import { CHAR_DIM_SIZE_ATTR } from "@lance-nd/cf";
import { attr } from "@lance-nd/nd-arrow";
import type { Attr, NdArray } from "@lance-nd/nd-arrow";
import { Type } from "apache-arrow";
import type { Vector } from "apache-arrow";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** The attribute holding the width `n` of `|S<n>` (`Int32`): the char dim's size of `@lance-nd/cf`'s storage attributes. */
export const BYTE_WIDTH_ATTR = CHAR_DIM_SIZE_ATTR;

/**
 * The width of the `|S<n>` an array is written as: its `_CharDimSize`
 * (Binary, or Utf8 read from a char variable), else for Binary the longest
 * value (at least 1, as numpy sizes a byte-string array), else `undefined`
 * (not written as byte strings).
 */
export function byteWidthOf(array: NdArray): number | undefined {
  const binary = array.type.typeId === Type.Binary || array.type.typeId === Type.LargeBinary;
  const text = array.type.typeId === Type.Utf8 || array.type.typeId === Type.LargeUtf8;
  const recorded = array.attr(BYTE_WIDTH_ATTR);
  if ((binary || text) && typeof recorded === "number" && Number.isSafeInteger(recorded) && recorded > 0)
    return recorded;
  if (!binary) return undefined;
  let longest = 1;
  for (const value of array.values as Iterable<Uint8Array | null>)
    if (value !== null) longest = Math.max(longest, value.length);
  return longest;
}

/**
 * The values of a Binary or Utf8 vector as Latin-1 strings of their bytes
 * (UTF-8 for text), nulls as `fill`. A value longer than `width` bytes is
 * `InvalidArgument`: numpy would cut it.
 */
export function latin1Values(values: Vector, width: number, fill: string, where: ZarrErrorContext): string[] {
  const encoder = new TextEncoder();
  const out = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values.get(i) as Uint8Array | string | null;
    if (value === null) {
      out[i] = fill;
      continue;
    }
    const bytes = typeof value === "string" ? encoder.encode(value) : value;
    if (bytes.length > width) {
      throw new ZarrError(
        "InvalidArgument",
        `value ${i} has ${bytes.length} bytes, more than the width ${width} of |S${width} (its ${BYTE_WIDTH_ATTR})`,
        where,
      );
    }
    out[i] = latin1(bytes);
  }
  return out;
}

/** A fill value (a Utf8 `_FillValue`) as a Latin-1 string of its UTF-8 bytes. */
export function latin1Fill(fill: string | undefined): string {
  return fill === undefined ? "" : latin1(new TextEncoder().encode(fill));
}

/** The bytes of a `|S<width>` chunk: each value NUL-padded to `width` bytes. */
export function fixedWidthBytes(values: readonly string[], width: number): Uint8Array {
  const out = new Uint8Array(values.length * width);
  values.forEach((value, i) => {
    for (let k = 0; k < value.length; k++) out[i * width + k] = value.charCodeAt(k);
  });
  return out;
}

/** The values of a `|S<width>` chunk's bytes as Latin-1 strings, trailing NULs dropped (as numpy reads them). */
export function fromFixedWidthBytes(bytes: Uint8Array, width: number): string[] {
  const out = new Array<string>(bytes.length / width);
  for (let i = 0; i < out.length; i++) {
    let end = (i + 1) * width;
    while (end > i * width && bytes[end - 1] === 0) end--;
    out[i] = latin1(bytes.subarray(i * width, end));
  }
  return out;
}

/** The v2 `fill_value` of a `|S<n>` array: its bytes in base64 (Zarr v2 spec, "Fill value encoding"). */
export function base64Fill(fill: string): string {
  return Buffer.from(fill, "latin1").toString("base64");
}

/**
 * The `_FillValue` attribute of a `|S<n>` array's v2 `fill_value` (base64),
 * trailing NULs dropped; `undefined` for none. Bytes that are not UTF-8
 * are `UnsupportedAttribute` (attributes hold text, not bytes).
 */
export function fillAttrOfBase64(fill: unknown, where: ZarrErrorContext): Attr | undefined {
  if (typeof fill !== "string") return undefined;
  let bytes = Buffer.from(fill, "base64");
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  bytes = bytes.subarray(0, end);
  try {
    return attr.utf8(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new ZarrError(
      "UnsupportedAttribute",
      `fill_value ${JSON.stringify(fill)} is bytes that are not UTF-8; nd-arrow attributes hold text`,
      where,
    );
  }
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let start = 0; start < bytes.length; start += 8192)
    text += String.fromCharCode(...bytes.subarray(start, start + 8192));
  return text;
}
