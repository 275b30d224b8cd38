/**
 * CF decoding and encoding of Zarr arrays through `@lance-nd/cf` (README
 * "CF conventions"): opt-in, so that by default a store reads as stored
 * (xarray's `decode_cf=False` view). Errors of `@lance-nd/cf` become
 * `ZarrError` `CfFailed` naming the array, with the `CfError` as `cause`.
 */
import { cfDecode, cfEncode } from "@lance-nd/cf";
import type { CfOptions } from "@lance-nd/cf";
import { NdArray, toVector } from "@lance-nd/nd-arrow";
import type { Attrs, Dim } from "@lance-nd/nd-arrow";
import type { DataType } from "apache-arrow";
import { z } from "zod";
import { ZarrError } from "./zarr-error.js";

/** The `cf` option: `true` for all of mask, scale and times, or `@lance-nd/cf`'s options. */
export type CfOption = boolean | Omit<CfOptions, "name">;

/** The zod schema of a `cf` option, shared by openZarr and writeZarr. */
export const cfOptionSchema = z.union([
  z.boolean(),
  z.strictObject({
    mask: z.boolean().optional(),
    lossless: z.boolean().optional(),
    scale: z.boolean().optional(),
    times: z.boolean().optional(),
  }),
]);

/** The cf options of a `cf` option, `undefined` when off. */
export function cfOptions(option: CfOption | undefined): Omit<CfOptions, "name"> | undefined {
  if (option === undefined || option === false) return undefined;
  return option === true ? {} : option;
}

/** `array` CF-decoded with `options` (`undefined`: as is). */
export function decodeArray(
  array: NdArray,
  options: Omit<CfOptions, "name"> | undefined,
  path: string,
  name: string,
): NdArray {
  if (options === undefined) return array;
  return guarded(() => cfDecode(array, { ...options, name }), path, name);
}

/** `array` CF-encoded with `options` (`undefined`: as is). */
export function encodeArray(
  array: NdArray,
  options: Omit<CfOptions, "name"> | undefined,
  path: string,
  name: string,
): NdArray {
  if (options === undefined) return array;
  return guarded(() => cfEncode(array, { ...options, name }), path, name);
}

/** The type and attributes a variable has once decoded: the decoding of an empty array of it. */
export function decodedShape(
  type: DataType,
  dims: readonly Dim[],
  attrs: Attrs,
  options: Omit<CfOptions, "name"> | undefined,
  path: string,
  name: string,
): { type: DataType; attrs: Attrs } {
  if (options === undefined) return { type, attrs };
  const empty = new NdArray(
    toVector([], type),
    dims.map((d) => ({ name: d.name, size: 0 })),
    attrs,
  );
  const decoded = decodeArray(empty, options, path, name);
  return { type: decoded.type, attrs: decoded.attrs };
}

function guarded<T>(run: () => T, path: string, variable: string): T {
  try {
    return run();
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ZarrError("CfFailed", `CF conventions: ${why}`, { path, variable, cause });
  }
}
