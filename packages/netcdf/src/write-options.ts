/**
 * The options of `writeNetcdf`, checked with zod where they enter, and the
 * `mode` rule shared with `writeZarr` and lance-nd's `write` (nd-arrow
 * README "Windows", the reader contract): `create` refuses an existing path.
 */
import { lstat } from "node:fs/promises";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { NetcdfError, netcdfOptionsError } from "./netcdf-error.js";

const writeOptionsSchema = z.strictObject({
  mode: z.enum(["create", "overwrite"]).optional(),
  compression: z.strictObject({ codec: z.enum(["deflate", "zstd", "none"]), level: z.number().optional() }).optional(),
  chunks: z.record(z.string(), z.number().int().min(1)).optional(),
  unlimited: z.array(z.string()).readonly().optional(),
  format: z.enum(["netcdf4", "classic", "64bit-offset"]).optional(),
});

/** `options` checked by their schema: `InvalidArgument` listing every problem. */
export function checkWriteOptions(path: string, options: unknown): void {
  parseOptions(writeOptionsSchema, options, "writeNetcdf", netcdfOptionsError(path));
}

/** With `mode` `create` (the default), an existing `path` is `InvalidArgument` naming the mode that replaces it. */
export async function refuseExisting(path: string, mode: "create" | "overwrite" | undefined): Promise<void> {
  if ((mode ?? "create") === "overwrite") return;
  const found = await lstat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => err.code !== "ENOENT",
  );
  if (found) {
    throw new NetcdfError("InvalidArgument", `${path}: already exists (pass mode: "overwrite" to replace it)`, {
      path,
    });
  }
}
