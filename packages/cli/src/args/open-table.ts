/** Opening the table a command names, optionally on a branch, at an earlier version and on an object store. */
import { open } from "lance-nd";
import type { NdTable } from "lance-nd";
import { describeHalfImport } from "lance-nd/internal";
import { type Io, warn } from "../io.js";
import { InvalidArgumentError } from "commander";
import { type StorageOptionFlags, storageOptionsOf } from "./storage-options.js";

/** The help of the `--branch <name>` option of every command that opens a table. */
export const BRANCH_HELP = "use this branch of the table (lance-nd branch lists them); default: main";

/** The help of the `--version <n|tag>` option of every command that reads a table. */
export const VERSION_HELP = "read an earlier version: its number or a tag (lance-nd tag lists them)";

/** Which table a command reads: its `--version`, `--branch` and `--storage-option`s. */
export interface TableFlags extends StorageOptionFlags {
  /** A version number or a tag name; default: the latest version. */
  version?: number | string;
  /** Default: main. */
  branch?: string;
}

/**
 * The latest version of the table at `uri` (on `flags.branch`, default main),
 * or a read-only view of `flags.version` (a version number or a tag name),
 * reached with `flags.storageOption` on an object store. With `io`, a view
 * of a half-import version (lance-nd README, "Version control") prints one
 * warning naming the complete versions around it.
 */
export async function openTable(uri: string, flags: TableFlags = {}, io?: Io): Promise<NdTable> {
  const table = await open(uri, {
    ...storageOptionsOf(flags),
    ...(flags.branch === undefined ? {} : { branch: flags.branch }),
  });
  if (flags.version === undefined) return table;
  const view = await table.checkout(flags.version);
  if (io !== undefined) await warnHalfImport(io, uri, table, await view.version());
  return view;
}

/** One warning when `version` of `table` is a half-import: it holds some of an import's rows only. */
async function warnHalfImport(io: Io, uri: string, table: NdTable, version: number): Promise<void> {
  const half = (await table.versions()).find((v) => v.version === version)?.halfImport;
  if (half !== null && half !== undefined) warn(io, `version ${version} of ${uri} is ${describeHalfImport(half)}`);
}

/**
 * A table version number from the command line (an integer >= 1). Throws
 * commander's `InvalidArgumentError` otherwise.
 */
function parseVersion(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new InvalidArgumentError("expected a version number (an integer >= 1)");
  return Number(text);
}

/**
 * The value of a `--version` option: a version number (an integer >= 1) or
 * a tag name (anything else that is not blank), which `checkout` resolves.
 * Throws commander's `InvalidArgumentError` for a blank value or version 0.
 */
export function parseVersionOrTag(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === "") throw new InvalidArgumentError("expected a version number or a tag name");
  return /^\d+$/.test(trimmed) ? parseVersion(trimmed) : trimmed;
}
