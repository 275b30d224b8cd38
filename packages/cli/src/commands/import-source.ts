/**
 * One input of `lance-nd import`, whatever its format: a netCDF file or a
 * Zarr store, with what the import pipeline needs before writing (its
 * variables and types after `--cf`, its size and row count) and its rows.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DataType } from "apache-arrow";
import type { Attrs, Dim, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { boundsTimeAttrs } from "@lance-nd/cf";
import { openNetcdf } from "@lance-nd/netcdf";
import type { CfMode } from "./import-plan.js";
import { decodeFor, netcdfDecodedType } from "./import-plan.js";
import { fileBytes, fileRows, planRows } from "./import-rows.js";
import { openZarrSource } from "./import-zarr.js";

/** An opened input of an import. */
export interface ImportSource {
  /** The path as given. */
  readonly path: string;
  /** The variables with their dims and attributes (as the rows carry them). */
  readonly variables: readonly { readonly name: string; readonly dims: readonly Dim[]; readonly attrs: Attrs }[];
  /** The global attributes. */
  readonly globalAttrs: Attrs;
  /** What the reader skipped (e.g. netCDF groups), one line each. */
  readonly warnings: readonly string[];
  /** Set when the input was cut into rows because of its size: says how. */
  readonly notice: string | undefined;
  /** The uncompressed bytes of its variables (for progress). */
  readonly bytes: number;
  /** The number of rows `rows()` yields. */
  readonly rowCount: number;
  /** The `--cf` decoding still to apply to each row (`raw` when the reader decoded already). */
  readonly rowCf: CfMode;
  /** A variable's type after `--cf` (undefined for a type that is not planned, e.g. strings). */
  typeAfterCf(name: string): DataType | undefined;
  /** One variable's values after `--cf`, as the rows hold them (e.g. a coordinate that orders `--concat` files). */
  read(name: string): Promise<NdArray>;
  /** The rows, one in memory at a time. */
  rows(): AsyncGenerator<NdRecordBatch>;
  /** Releases the reader. */
  close(): Promise<void>;
}

/** True when `path` is a directory holding a Zarr group or array (`zarr.json`, `.zgroup` or `.zarray`). */
export function isZarrStore(path: string): boolean {
  return (
    existsSync(path) &&
    statSync(path).isDirectory() &&
    ["zarr.json", ".zgroup", ".zarray"].some((name) => existsSync(join(path, name)))
  );
}

/** Opens `path` (a Zarr store or a netCDF file), cut into rows by `chunk` or its default row plan. */
export async function openSource(
  path: string,
  id: string,
  mode: CfMode,
  chunk: ReadonlyMap<string, number> | undefined,
): Promise<ImportSource> {
  if (isZarrStore(path)) return openZarrSource(path, id, mode, chunk);
  const file = await openNetcdf(path);
  let plan: ReturnType<typeof planRows>;
  try {
    plan = planRows(file, chunk);
  } catch (err) {
    await file.close();
    throw err;
  }
  // Under decode, time bounds take their coordinate's units and calendar, as xarray decodes them (CLI README, "CF conventions").
  const bounds = mode === "decode" ? boundsTimeAttrs(file.variables) : new Map<string, Attrs>();
  return {
    path,
    variables: file.variables.map((v) => ({ name: v.name, dims: v.dims, attrs: bounds.get(v.name) ?? v.attrs })),
    globalAttrs: file.globalAttrs,
    warnings: file.warnings,
    notice: plan.notice,
    bytes: fileBytes(file),
    rowCount: plan.rows,
    rowCf: mode,
    typeAfterCf: (name) => netcdfDecodedType(file, name, mode, bounds.get(name)),
    read: async (name) => {
      const array = await file.read(name);
      return decodeFor(array.withAttrs(bounds.get(name) ?? array.attrs), mode, name, true);
    },
    rows: () => withArrayAttrs(fileRows(file, plan), bounds),
    close: () => file.close(),
  };
}

/** The rows with the arrays named in `attrs` given those attributes. */
async function* withArrayAttrs(
  rows: AsyncGenerator<NdRecordBatch>,
  attrs: ReadonlyMap<string, Attrs>,
): AsyncGenerator<NdRecordBatch> {
  for await (const row of rows) {
    if (attrs.size === 0) yield row;
    else
      yield row.withArrays(
        row.arrays().map(([name, array]) => [name, array.withAttrs(attrs.get(name) ?? array.attrs)] as const),
      );
  }
}
