/**
 * A table row as its source file had it, as `lance-nd export` and the Zarr
 * store (README "Serving as Zarr") give it: the file's variable names and
 * global attributes back, without the netCDF storage attributes
 * (`@lance-nd/netcdf` README, "Storage attributes"), which describe netCDF
 * storage (and xarray refuses to write a dataset holding `_Format` to
 * netCDF). A char array keeps its char dim's name and size: the Zarr
 * encoding writes it as `|S<size>` (`@lance-nd/zarr` README, "Types") and
 * leaves them out of the attributes.
 */
import { CHAR_DIM_ATTR, CHAR_DIM_SIZE_ATTR, STORAGE_ATTRS } from "@lance-nd/cf";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Attrs, NdArray } from "@lance-nd/nd-arrow";
import { sourceAttrTypes } from "./attr-types.js";
import { withSourceNames } from "./column-names.js";
import { sourceGlobals } from "./source-globals.js";

/** `row` with its source file's names, global attributes and attribute types, storage attributes (but a char array's width) left out. */
export function sourceRow(row: NdRecordBatch): NdRecordBatch {
  const storage = (key: string) => STORAGE_ATTRS.has(key);
  const arrayStorage = (key: string) => storage(key) && key !== CHAR_DIM_ATTR && key !== CHAR_DIM_SIZE_ATTR;
  const kept = (attrs: Attrs, dropped: (key: string) => boolean) =>
    new Map([...attrs].filter(([key]) => !dropped(key)));
  const named = withSourceNames(row);
  return new NdRecordBatch(
    named
      .arrays()
      .map(([name, array]): [string, NdArray] => [
        name,
        array.withAttrs(kept(sourceAttrTypes(array.attrs), arrayStorage)),
      ]),
    kept(sourceGlobals(named.globalAttrs), storage),
  );
}
