/**
 * A table row as its source file had it, as `lance-nd export` and the Zarr
 * store (README "Serving as Zarr") give it: the file's variable names and
 * global attributes back, without the netCDF storage attributes
 * (`@lance-nd/netcdf` README, "Storage attributes"), which describe netCDF
 * storage (and xarray refuses to write a dataset holding `_Format` to
 * netCDF).
 */
import { STORAGE_ATTRS } from "@lance-nd/cf";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Attrs, NdArray } from "@lance-nd/nd-arrow";
import { withSourceNames } from "./column-names.js";
import { sourceGlobals } from "./source-globals.js";

/** `row` with its source file's names and global attributes, storage attributes left out. */
export function sourceRow(row: NdRecordBatch): NdRecordBatch {
  const kept = (attrs: Attrs) => new Map([...attrs].filter(([key]) => !STORAGE_ATTRS.has(key)));
  const named = withSourceNames(row);
  return new NdRecordBatch(
    named.arrays().map(([name, array]): [string, NdArray] => [name, array.withAttrs(kept(array.attrs))]),
    kept(sourceGlobals(named.globalAttrs)),
  );
}
