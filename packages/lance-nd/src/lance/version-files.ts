/**
 * The `_versions/` folder of a local table, read without the SDK (which
 * opens only the latest manifest): the manifest files and their version
 * numbers, a read-only view of one version, and moving manifests aside.
 * Used by `check` (README, "check").
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  copyFileSync,
  existsSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { LanceNdError } from "../errors.js";
import { openTable, type LanceTable } from "./table-open.js";
import { parseTableUri } from "./uri.js";

/** One manifest file of `_versions/`. */
export interface ManifestFile {
  /** The version it commits. */
  version: number;
  /** Its file name in `_versions/`. */
  file: string;
}

/** The folder where `check --repair` moves manifests that do not parse and damaged deletion files (inside the table folder). */
export const QUARANTINE_FOLDER = "_lance_nd_quarantine";

// Lance's V2 naming writes version v as (2^64 - 1 - v) in 20 digits, so that the newest sorts first; V1 writes v.
const U64_MAX = 2n ** 64n - 1n;
const LATEST_HINT = "latest_version_hint.json";

/** The local folder of the table at `uri`, or undefined for an object store or memory:// table. */
export function localTableFolder(uri: string): string | undefined {
  const { dbUri, tableName } = parseTableUri(uri);
  return path.isAbsolute(dbUri) ? path.join(dbUri, `${tableName}.lance`) : undefined;
}

/**
 * The manifests in `<folder>/_versions/`, newest first.
 *
 * @throws LanceNdError `TableNotFound` when the folder has no `_versions/`.
 */
export function manifestFiles(uri: string, folder: string): ManifestFile[] {
  const versionsFolder = path.join(folder, "_versions");
  if (!existsSync(versionsFolder))
    throw new LanceNdError("TableNotFound", `no table here: ${versionsFolder} does not exist`, { uri });
  const files: ManifestFile[] = [];
  for (const file of readdirSync(versionsFolder)) {
    const match = /^(\d+)\.manifest$/.exec(file);
    if (match === null) continue;
    const n = BigInt(match[1]!);
    files.push({ version: Number(match[1]!.length === 20 ? U64_MAX - n : n), file });
  }
  return files.sort((a, b) => b.version - a.version);
}

/** A read-only handle on one version of a local table, and how to let it go. */
export interface VersionView {
  table: LanceTable;
  /** Closes the handle and removes the view's folder. */
  close(): void;
}

/**
 * Opens one manifest of a local table as if it were the latest: a temporary
 * table folder holds a copy of the manifest and links to every other entry
 * of the table folder (data, deletions, indices, transactions), so the SDK
 * reads the table's own files. Nothing in the table changes. Errors name
 * `uri`, not the view.
 *
 * @throws LanceNdError from the SDK when the manifest does not parse.
 */
export async function openVersionView(uri: string, folder: string, manifest: ManifestFile): Promise<VersionView> {
  const root = mkdtempSync(path.join(tmpdir(), "lance-nd-check-"));
  const remove = (): void => rmSync(root, { recursive: true, force: true });
  try {
    const viewFolder = path.join(root, "view.lance");
    mkdirSync(path.join(viewFolder, "_versions"), { recursive: true });
    for (const entry of readdirSync(folder)) {
      if (entry !== "_versions" && entry !== QUARANTINE_FOLDER)
        symlinkSync(path.join(folder, entry), path.join(viewFolder, entry));
    }
    copyFileSync(path.join(folder, "_versions", manifest.file), path.join(viewFolder, "_versions", manifest.file));
    const table = await openTable(viewFolder).catch((err: unknown) => {
      throw err instanceof LanceNdError
        ? new LanceNdError(err.code, err.message.replace(`table "${viewFolder}": `, ""), { uri, cause: err })
        : err;
    });
    return {
      table: { ...table, uri },
      close: () => {
        table.sdk.close();
        remove();
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}

/**
 * Moves manifests out of `_versions/` into `<folder>/_lance_nd_quarantine/`
 * (kept for inspection, never deleted), and drops Lance's latest-version
 * hint so the newest manifest left is the latest. Returns the new paths.
 */
export function quarantineManifests(folder: string, manifests: readonly ManifestFile[]): string[] {
  if (manifests.length === 0) return [];
  const target = path.join(folder, QUARANTINE_FOLDER);
  mkdirSync(target, { recursive: true });
  const moved = manifests.map(({ file }) => {
    const to = path.join(target, `${Date.now()}-${file}`);
    renameSync(path.join(folder, "_versions", file), to);
    return to;
  });
  rmSync(path.join(folder, "_versions", LATEST_HINT), { force: true });
  return moved;
}
