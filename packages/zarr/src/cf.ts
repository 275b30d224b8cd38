/**
 * CF encoding of arrays that `writeZarr` writes, through `@lance-nd/cf`
 * (README "CF conventions"): opt-in. Reading does not decode: a store reads
 * as stored and `cfDecode` decodes what `read` returns. Errors of
 * `@lance-nd/cf` become `ZarrError` `CfFailed` naming the array, with the
 * `CfError` as `cause`.
 */
import { cfEncode } from "@lance-nd/cf";
import type { CfOptions } from "@lance-nd/cf";
import type { NdArray } from "@lance-nd/nd-arrow";
import { z } from "zod";
import { ZarrError } from "./zarr-error.js";

/** The `cf` option: `true` for all of mask, scale and times, or `@lance-nd/cf`'s options. */
export type CfOption = boolean | Omit<CfOptions, "name">;

/** The zod schema of writeZarr's `cf` option. */
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

function guarded<T>(run: () => T, path: string, variable: string): T {
  try {
    return run();
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ZarrError("CfFailed", `CF conventions: ${why}`, { path, variable, cause });
  }
}
