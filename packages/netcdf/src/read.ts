/** `readNetcdf`: a whole netCDF file as one NdRecordBatch. */
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { netcdfOptionsError } from "./netcdf-error.js";
import { openNetcdf, openOptionsShape } from "./open.js";
import type { OpenNetcdfOptions } from "./open.js";

/** Options of {@link readNetcdf}. */
export interface ReadNetcdfOptions extends OpenNetcdfOptions {
  /** Read only these variables (in file order); unknown names are `VariableNotFound`. Default: all. */
  variables?: readonly string[];
}

const readOptionsSchema = z.strictObject({ ...openOptionsShape, variables: z.array(z.string()).readonly().optional() });

/**
 * Reads a netCDF file (a path, or its bytes) into one NdRecordBatch: each
 * variable an NdArray with its netCDF dims and all its attributes (raw stored
 * values: nothing is masked or unpacked; see `@lance-nd/cf`), the file's
 * global attributes as global attributes. Types: byte Int8, ubyte UInt8,
 * short Int16, ushort UInt16, int Int32, uint UInt32, int64 Int64, uint64
 * UInt64, float Float32, double Float64, char arrays and NC_STRING Utf8 (the
 * last dim of a char array is the string length and goes away). Errors as
 * {@link openNetcdf}; `VariableNotFound` for a name in `variables` that the
 * file does not have.
 *
 * @example
 * const batch = await readNetcdf("sst.nc");
 * batch.get("sst")?.dims; // [{ name: "time", size: 12 }, { name: "lat", ... }, ...]
 */
export async function readNetcdf(source: string | Uint8Array, options: ReadNetcdfOptions = {}): Promise<NdRecordBatch> {
  const { variables, ...open } = parseOptions(
    readOptionsSchema,
    options,
    "readNetcdf",
    netcdfOptionsError(typeof source === "string" ? source : "<bytes>"),
  );
  const file = await openNetcdf(source, open);
  try {
    const names = file.variables.map((v) => v.name);
    const wanted = variables === undefined ? names : names.filter((n) => variables.includes(n));
    for (const name of variables ?? []) file.variable(name);
    const arrays: [string, NdArray][] = [];
    for (const name of wanted) arrays.push([name, await file.read(name)]);
    return new NdRecordBatch(arrays, file.globalAttrs);
  } finally {
    await file.close();
  }
}
