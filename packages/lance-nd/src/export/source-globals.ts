/**
 * The global attributes of a file as the file had them (CLI README,
 * "Import"): import names a file's rows by the `id` global attribute,
 * places them by `chunk_offset` and (`--concat`) names their file by
 * `_SourceFile`. A file's own global attributes of those names are kept
 * apart under a reserved escape: its own `id` as {@link SOURCE_ID_ATTR},
 * any other as {@link SOURCE_ESCAPE} + its name (`_Source:chunk_offset`,
 * and so `_Source:_SourceId` for a file's own `_SourceId`). Export and the
 * Zarr store give them back under their own names.
 */
import type { Attr } from "@lance-nd/nd-arrow";
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import { SOURCE_FILE_ATTR } from "../write/concat-sources.js";
import { sourceAttrTypes } from "./attr-types.js";

/** Global: the source file's own `id` attribute, kept while the row's `id` names the rows. */
const SOURCE_ID_ATTR = "_SourceId";

/** The prefix a file's own global attribute takes when its name is one lance-nd sets on rows (or starts with the prefix). */
const SOURCE_ESCAPE = "_Source:";

/** The names a file's own global attribute cannot keep in a table: lance-nd's own, and the one escape. */
const RESERVED: ReadonlySet<string> = new Set([CHUNK_OFFSET, SOURCE_FILE_ATTR, SOURCE_ID_ATTR]);

/** The table's name of a file's own global attribute `name` (`id` -> `_SourceId`, `chunk_offset` -> `_Source:chunk_offset`). */
export function storedGlobalName(name: string): string {
  if (name === "id") return SOURCE_ID_ATTR;
  return RESERVED.has(name) || name.startsWith(SOURCE_ESCAPE) ? SOURCE_ESCAPE + name : name;
}

/**
 * The file's name of a table's global attribute `stored` ({@link storedGlobalName}
 * undone), or `undefined` for the ones lance-nd sets (`id`, `_SourceFile`);
 * `chunk_offset` stays, the place of a row that writers read.
 */
function sourceGlobalName(stored: string): string | undefined {
  if (stored === "id" || stored === SOURCE_FILE_ATTR) return undefined;
  if (stored === SOURCE_ID_ATTR) return "id";
  return stored.startsWith(SOURCE_ESCAPE) ? stored.slice(SOURCE_ESCAPE.length) : stored;
}

/**
 * The global attributes as the source file had them: the row's `id` and
 * `_SourceFile` (import `--concat`) left out, the file's own attributes of
 * reserved names back under their names, the attribute types it had
 * (`sourceAttrTypes`). Globals of a row that hold its `chunk_offset` keep
 * it, without the file's own `chunk_offset`: the Zarr export and store,
 * which write rows, leave that one out.
 */
export function sourceGlobals(globals: ReadonlyMap<string, Attr>): Map<string, Attr> {
  const out = new Map<string, Attr>();
  const placed = globals.has(CHUNK_OFFSET);
  for (const [key, value] of globals) {
    const name = sourceGlobalName(key);
    // A row's place wins over the file's own chunk_offset, which rows cannot carry too (a dataset can).
    if (name === undefined || (name === CHUNK_OFFSET && key !== CHUNK_OFFSET && placed)) continue;
    out.set(name, value);
  }
  return sourceAttrTypes(out);
}
