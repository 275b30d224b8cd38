// Damage done to a local table's files, as a disk or a crash does it, for
// the tests of `check` (README, "check").
import { readdirSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The data files of a table, oldest first (one per append when nothing was compacted). */
export function dataFiles(folder: string): string[] {
  const dir = join(folder, "data");
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/** The manifest files of a table, newest first (Lance's V2 names sort the newest first). */
export function manifests(folder: string): string[] {
  const dir = join(folder, "_versions");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".manifest"))
    .sort()
    .map((f) => join(dir, f));
}

/** Cuts a file to `fraction` of its size. */
export function truncate(file: string, fraction = 0.5): void {
  truncateSync(file, Math.floor(statSync(file).size * fraction));
}

/** Overwrites a file with bytes that are not a manifest. */
export function garble(file: string): void {
  writeFileSync(file, "this is not a Lance manifest");
}
