/**
 * The `id` global attribute that names a file's rows in a table (the file
 * name, or `import --id`), and the file's own global `id`, which import keeps
 * under {@link SOURCE_ID_ATTR} and export gives back as `id` (README,
 * "Import").
 */
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { Attr, NdRecordBatch } from "@lance-nd/nd-arrow";
import { SOURCE_ID_ATTR } from "lance-nd/internal";

export { SOURCE_ID_ATTR, sourceGlobals } from "lance-nd/internal";

/**
 * The row with its `id` global attribute, placed before `chunk_offset`. With
 * `keepOwnId` (a netCDF file), the file's own `id` moves to `_SourceId`;
 * without (a Zarr store, whose reader sets `id` to the row id), it is
 * replaced.
 */
export function withId(row: NdRecordBatch, id: string, keepOwnId: boolean): NdRecordBatch {
  const globals = new Map<string, Attr>();
  for (const [key, value] of row.globalAttrs) {
    if (key === CHUNK_OFFSET || (key === "id" && !keepOwnId)) continue;
    globals.set(key === "id" ? SOURCE_ID_ATTR : key, value);
  }
  globals.set("id", attr.utf8(id));
  const offset = row.globalAttrs.get(CHUNK_OFFSET);
  if (offset !== undefined) globals.set(CHUNK_OFFSET, offset);
  return row.withGlobalAttrs(globals);
}
