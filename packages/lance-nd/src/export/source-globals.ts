/**
 * The global attributes of a file as the file had them (CLI README,
 * "Import"): import names a file's rows by the `id` global attribute and
 * keeps the file's own `id` under {@link SOURCE_ID_ATTR}; export and the
 * Zarr store give the file its own `id` back.
 */
import type { Attr } from "@lance-nd/nd-arrow";
import { SOURCE_FILE_ATTR } from "../write/concat-sources.js";
import { sourceAttrTypes } from "./attr-types.js";

/** Global: the source file's own `id` attribute, kept while the row's `id` names the rows. */
export const SOURCE_ID_ATTR = "_SourceId";

/**
 * The global attributes as the source file had them: the row's `id` and
 * `_SourceFile` (import `--concat`) left out, its own `id` (`_SourceId`)
 * back in place, the attribute types it had (`sourceAttrTypes`).
 */
export function sourceGlobals(globals: ReadonlyMap<string, Attr>): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const [key, value] of globals) {
    if (key === "id" || key === SOURCE_FILE_ATTR) continue;
    out.set(key === SOURCE_ID_ATTR ? "id" : key, value);
  }
  return sourceAttrTypes(out);
}
