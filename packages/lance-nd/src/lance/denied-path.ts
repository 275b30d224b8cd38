import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { parseTableUri } from "./uri.js";

/**
 * The file or folder of a local table that this process may not use, for a
 * "Permission denied" the SDK reports without a path (e.g. creating a table
 * in a read-only folder: SDK-NOTES.md, section 8): the table folder, its
 * `_versions` or `data` folder, its `_refs` folders or a tag or branch file
 * in them (README.md, "Version control"), or, when the table does not exist
 * yet, the nearest existing folder above it. Undefined for an object store
 * or memory:// uri, or when every one of them is usable.
 *
 * @example
 * deniedPath("/readonly/new.lance"); // "/readonly"
 */
export function deniedPath(uri: string): string | undefined {
  let folder: string;
  try {
    const { dbUri, tableName } = parseTableUri(uri);
    if (!path.isAbsolute(dbUri)) return undefined;
    folder = path.join(dbUri, `${tableName}.lance`);
  } catch {
    return undefined;
  }
  if (!existsSync(folder)) {
    let above = path.dirname(folder);
    while (!existsSync(above) && path.dirname(above) !== above) above = path.dirname(above);
    return usable(above) ? undefined : above;
  }
  const refs = path.join(folder, "_refs");
  const refFolders = [path.join(refs, "tags"), path.join(refs, "branches")];
  const candidates = [folder, path.join(folder, "_versions"), path.join(folder, "data"), refs, ...refFolders];
  const denied = candidates.find((candidate) => existsSync(candidate) && !usable(candidate));
  if (denied !== undefined) return denied;
  for (const refFolder of refFolders) {
    if (!existsSync(refFolder)) continue;
    const file = readdirSync(refFolder)
      .map((name) => path.join(refFolder, name))
      .find((ref) => !readable(ref));
    if (file !== undefined) return file;
  }
  return undefined;
}

/** A file this process can read (a tag or branch file is read, never written in place). */
function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** A folder this process can list, enter and write into; a file it can read and write. */
function usable(target: string): boolean {
  try {
    const mode = statSync(target).isDirectory()
      ? constants.R_OK | constants.W_OK | constants.X_OK
      : constants.R_OK | constants.W_OK;
    accessSync(target, mode);
    return true;
  } catch {
    return false;
  }
}
