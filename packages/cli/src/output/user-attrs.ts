/**
 * The attributes users see: a dataset's own, without the storage attributes
 * that import keeps so that export can write the file back (`_DimOrder`,
 * `_VariableOrder`, `_Format`, `_Unlimited`, `_ChunkSizes`, ...: netcdf
 * README, "Storage attributes") or the attribute types it records
 * (`_lance_nd_attr_dtypes`). `info`, `scan` and the viewer show these by
 * default; `--all-attrs` shows every attribute (CLI README, "info, vars").
 * `id`, `chunk_offset` and `_SourceFile` stay: they are the filters that
 * pick rows.
 */
import { STORAGE_ATTRS } from "@lance-nd/cf";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Attr, Attrs, NdArray } from "@lance-nd/nd-arrow";
import { ATTR_DTYPES_ATTR } from "lance-nd/internal";

/** True for an attribute name users do not see by default. */
export function isStorageAttr(name: string): boolean {
  return STORAGE_ATTRS.has(name) || name === ATTR_DTYPES_ATTR;
}

/** `attrs` without the storage attributes. */
export function userAttrs(attrs: Attrs): Map<string, Attr> {
  return new Map([...attrs].filter(([key]) => !isStorageAttr(key)));
}

/** `row` with only the attributes users see, global and of each array. */
export function userRow(row: NdRecordBatch): NdRecordBatch {
  return new NdRecordBatch(
    row.arrays().map(([name, array]): [string, NdArray] => [name, array.withAttrs(userAttrs(array.attrs))]),
    userAttrs(row.globalAttrs),
  );
}
