/**
 * Key indexes in `check` (README, "Key indexes" and "check"): each one is
 * opened by a query it answers, and a damaged one is built again.
 */
import { isLanceNdError } from "../errors.js";
import { keyIndexesOf } from "../read/key-index.js";
import { createBtreeIndex } from "../lance/table-indexes.js";
import type { LanceTable } from "../lance/table-open.js";
import { scanRows } from "../lance/table-read.js";
import type { FileProbe } from "./file-probe.js";
import { isEnvironmentError } from "./environment-errors.js";

/** A key index that does not answer a query. */
export interface DamagedIndex {
  /** Lance's name of the index. */
  name: string;
  /** The indexed path, e.g. `__global_attrs__.id`. */
  column: string;
  /** Why: a damaged file of it, or the query's error. */
  error: string;
}

/** What opening the key indexes found. */
export interface IndexHealth {
  damaged: DamagedIndex[];
  /** Indexes whose query failed for a reason that is not damage: name and cause. */
  inaccessible: Array<{ name: string; cause: string }>;
}

/**
 * Opens every key index of the handle's version: an index with a damaged
 * file (`files`) is damaged; with `query`, the others answer `<column> IS
 * NOT NULL`, which Lance reads from every page of the index.
 */
export async function keyIndexHealth(table: LanceTable, files: FileProbe, query = true): Promise<IndexHealth> {
  const health: IndexHealth = { damaged: [], inaccessible: [] };
  for (const index of await keyIndexesOf(table)) {
    const file = files.damaged.find((f) => f.index === index.name);
    if (file !== undefined) {
      health.damaged.push({ ...index, error: `${file.path}: ${file.detail}` });
      continue;
    }
    if (!query || files.inaccessible.some((f) => f.index === index.name)) continue;
    try {
      for await (const _ of scanRows(table, { columns: ["_rowid"], filter: `${index.column} IS NOT NULL` })) {
        // Reading every batch reads every page the index answers from.
      }
    } catch (err) {
      if (!isLanceNdError(err)) throw err;
      const error = err.message.replace(`table "${table.uri}": `, "");
      if (isEnvironmentError(error)) health.inaccessible.push({ name: index.name, cause: error });
      else health.damaged.push({ ...index, error });
    }
  }
  return health;
}

/** Builds each damaged index again (one commit each); returns them. */
export async function rebuildIndexes(table: LanceTable, damaged: readonly DamagedIndex[]): Promise<DamagedIndex[]> {
  for (const index of damaged) await createBtreeIndex(table, index.column);
  return [...damaged];
}
