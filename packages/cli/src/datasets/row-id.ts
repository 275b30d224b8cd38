/**
 * The `id` global attribute that names a file's rows in a table (the file
 * name, or `import --id`), and the file's own global attributes of the
 * names lance-nd sets on rows (`id`, `chunk_offset`, `_SourceFile`), which
 * import keeps under a reserved escape (`_SourceId`, `_Source:<name>`) and
 * export gives back (README, "Import").
 */
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { Attr, Attrs, NdRecordBatch } from "@lance-nd/nd-arrow";
import { storedGlobalName } from "lance-nd/internal";

export { sourceGlobals } from "lance-nd/internal";

/**
 * The row with its `id` global attribute, placed before `chunk_offset`.
 * The reader set `chunk_offset` (and, for a Zarr store, `id`) on the row:
 * the file's own attributes of those names come from `header` (the
 * file's global attributes as read) and, like every other attribute of a
 * reserved name, are kept under their escaped names, in the header's order.
 */
export function withId(row: NdRecordBatch, id: string, header: Attrs): NdRecordBatch {
  const globals = new Map<string, Attr>();
  // The header's order, which the row may not keep (a reader sets its chunk_offset last or not at all).
  const keys = new Set([...header.keys(), ...row.globalAttrs.keys()]);
  for (const key of keys) {
    const own = key === "id" || key === CHUNK_OFFSET ? header.get(key) : row.globalAttrs.get(key);
    if (own !== undefined) globals.set(storedGlobalName(key), own);
  }
  globals.set("id", attr.utf8(id));
  const offset = row.globalAttrs.get(CHUNK_OFFSET);
  if (offset !== undefined) globals.set(CHUNK_OFFSET, offset);
  return row.withGlobalAttrs(globals);
}
