/** Opening the table a command names, optionally at an earlier version. */
import { checkout, open } from "lance-nd";
import type { NdTable } from "lance-nd";
import { InvalidArgumentError } from "commander";

/** The latest version of the table at `uri`, or a read-only view of `version`. */
export async function openTable(uri: string, version?: number): Promise<NdTable> {
  const table = await open(uri);
  return version === undefined ? table : checkout(table, version);
}

/**
 * A table version number from the command line (an integer >= 1). Throws
 * commander's `InvalidArgumentError` otherwise.
 */
export function parseVersion(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new InvalidArgumentError("expected a version number (an integer >= 1)");
  return Number(text);
}
