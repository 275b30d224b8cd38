/** Opening the table a command names, optionally on a branch and at an earlier version. */
import { open } from "lance-nd";
import type { NdTable } from "lance-nd";
import { InvalidArgumentError } from "commander";

/** The help of the `--branch <name>` option of every command that opens a table. */
export const BRANCH_HELP = "use this branch of the table (lance-nd branch lists them); default: main";

/** The help of the `--version <n|tag>` option of every command that reads a table. */
export const VERSION_HELP = "read an earlier version: its number or a tag (lance-nd tag lists them)";

/**
 * The latest version of the table at `uri` (on `branch`, default main), or a
 * read-only view of `version` (a version number or a tag name).
 */
export async function openTable(uri: string, version?: number | string, branch?: string): Promise<NdTable> {
  const table = await open(uri, branch === undefined ? {} : { branch });
  return version === undefined ? table : table.checkout(version);
}

/**
 * A table version number from the command line (an integer >= 1). Throws
 * commander's `InvalidArgumentError` otherwise.
 */
export function parseVersion(text: string): number {
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
