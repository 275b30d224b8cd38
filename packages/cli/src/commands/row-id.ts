/**
 * The `id` global attribute that names a file's rows in a table (the file
 * name, or `import --id`), and the file's own global `id`, which import keeps
 * under {@link SOURCE_ID_ATTR} and export gives back as `id` (README,
 * "Import").
 */
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { Attr, NdRecordBatch } from "@lance-nd/nd-arrow";
import { SOURCE_FILE_ATTR } from "lance-nd";

/** Global: the source file's own `id` attribute, kept while the row's `id` names the rows. */
export const SOURCE_ID_ATTR = "_SourceId";

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

/**
 * The global attributes as the source file had them: the row's `id` and
 * `_SourceFile` (import `--concat`) left out, its own `id` (`_SourceId`)
 * back in place.
 */
export function sourceGlobals(globals: ReadonlyMap<string, Attr>): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const [key, value] of globals) {
    if (key === "id" || key === SOURCE_FILE_ATTR) continue;
    out.set(key === SOURCE_ID_ATTR ? "id" : key, value);
  }
  return out;
}
