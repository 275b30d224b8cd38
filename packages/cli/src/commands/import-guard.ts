/**
 * What keeps a re-import safe: the CF mode a table was created with, the ids
 * already in it, and a failed create that leaves no folder behind (CLI README, "Importing again").
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { col, scan } from "lance-nd";
import type { NdTable } from "lance-nd";
import { CliError } from "../errors.js";
import type { CfMode } from "./import-plan.js";

/** The schema metadata key that records a table's `--cf` mode. */
export const CF_MODE_KEY = "lance_nd:cf";

/** The `--cf` mode of a table (tables imported before `--cf` existed hold raw values). */
export function tableCfMode(table: NdTable): CfMode {
  const mode = table.tableSchema.metadata.get(CF_MODE_KEY);
  return mode === "mask" || mode === "decode" ? mode : "raw";
}

/** `InvalidArgument` naming both modes when `mode` is not the table's. */
export function checkCfMode(table: NdTable, mode: CfMode): void {
  const recorded = tableCfMode(table);
  if (recorded !== mode) {
    throw new CliError(
      "InvalidArgument",
      `${table.uri} was created with --cf ${recorded}; this import uses --cf ${mode} (import with --cf ${recorded}, or into a new table)`,
    );
  }
}

/** The ones of `ids` that rows of the table already have. */
export async function existingIds(table: NdTable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = new Set<string>();
  for await (const batch of scan(table)
    .project([])
    .filterExpr(col("__global_attrs__.id").isIn([...ids]))) {
    const id = batch.globalAttr("id");
    if (typeof id === "string") found.add(id);
  }
  return ids.filter((id) => found.has(id));
}

/**
 * Runs a create; when it fails and the table folder did not exist before,
 * the folder goes too (a failed create leaves nothing behind).
 */
export async function removingNewFolder<T>(uri: string, create: boolean, run: () => Promise<T>): Promise<T> {
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
  const existed = !create || !local || existsSync(uri);
  try {
    return await run();
  } catch (err) {
    if (!existed) await rm(uri, { recursive: true, force: true });
    throw err;
  }
}
