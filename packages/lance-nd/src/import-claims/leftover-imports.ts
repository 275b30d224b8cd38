/**
 * What a killed import leaves (README.md, "Guarantees"), found and undone:
 * an import mark whose process does not run (import-mark.ts) and the rows
 * it committed, and writer locks no running import holds (writer-lock.ts).
 * `check` reports both; `check --repair` undoes them.
 */
import { dropTable, type LanceTable, openTable, type StorageOptions } from "../lance/table-open.js";
import { countRows } from "../lance/table-read.js";
import { checkoutVersion, deleteWhere, restoreVersion } from "../lance/table-versions.js";
import { col } from "../read/expr.js";
import { type ImportMode, importMarks, importRunning, unmarkImport } from "./import-mark.js";
import { unlockIds, writerLocks } from "./writer-lock.js";

/** An import that did not end: its mark is there and its process does not run. */
export interface LeftoverImport {
  /** The uuid of its mark (tag `lance-nd-import-<uuid>`). */
  uuid: string;
  /** Its mode; null when its mark cannot be read (only its tags are removed). */
  mode: ImportMode | null;
  /** The branch it wrote; null for `main`. */
  branch: string | null;
  /** The version it started from (a create: its first version); null when unknown. */
  version: number | null;
  /** The ids of its rows. */
  ids: string[];
  /** Its rows in the latest version (a create: every row; an overwrite: every row it wrote). */
  rows: number;
  /** The process that ran it: `<pid> on <host>`; null when unknown. */
  process: string | null;
}

/** A writer lock no running import holds. */
export interface StaleLock {
  /** The tag (`lance-nd-lock-<hash>`). */
  tag: string;
  /** The id it locks, when a mark still names it. */
  id: string | null;
}

/** What {@link repairLeftoverImports} did. */
export interface ImportRepair {
  /** The imports undone: their rows removed (an overwrite: the version before it restored), their mark removed. */
  undone: LeftoverImport[];
  /** Replaces that had completed (their delete of the old rows landed): only their mark was removed. */
  completed: LeftoverImport[];
  /** A leftover create: the table it made was removed (nothing else was repaired). */
  droppedTable: boolean;
  /** The stale locks broken. */
  brokenLocks: StaleLock[];
}

/** The leftover imports of the table (a handle of `main`). */
export async function leftoverImports(main: LanceTable): Promise<LeftoverImport[]> {
  const out: LeftoverImport[] = [];
  for (const mark of await importMarks(main)) {
    const info = mark.info;
    if (info !== null && importRunning(info)) continue;
    if (info === null || mark.taggedVersion === null) {
      out.push({ uuid: mark.uuid, mode: null, branch: null, version: null, ids: [], rows: 0, process: null });
      continue;
    }
    const rows = await withData(main, info.branch, (data) =>
      countRows(data, importedRows(info.mode, info.version, info.ids)),
    );
    const process = `${info.pid} on ${info.host}`;
    out.push({
      uuid: mark.uuid,
      mode: info.mode,
      branch: info.branch,
      version: info.version,
      ids: info.ids,
      rows,
      process,
    });
  }
  return out;
}

/** The writer locks of the table (a handle of `main`) that no running import holds. */
export async function staleLocks(main: LanceTable): Promise<StaleLock[]> {
  return (await writerLocks(main)).filter((l) => l.stale).map((l) => ({ tag: l.tag, id: l.id }));
}

/**
 * Undoes the leftover imports of the table at `uri`: an append's rows go
 * (one delete), a replace's new rows go unless its delete of the old ones
 * landed (then the import had completed and its rows stay), an overwrite's
 * start version is restored, a create's table is removed; then each mark
 * goes, then the stale locks are broken. A create's removal ends the
 * repair (the table and its tags are gone).
 *
 * @throws LanceNdError from the deletes, restores and tag removals; the
 * marks not yet undone stay, so a second repair continues.
 */
export async function repairLeftoverImports(uri: string, storage: StorageOptions = {}): Promise<ImportRepair> {
  const main = await openTable(uri, storage);
  const repair: ImportRepair = { undone: [], completed: [], droppedTable: false, brokenLocks: [] };
  try {
    const leftovers = await leftoverImports(main);
    const marks = new Map((await importMarks(main)).map((m) => [m.uuid, m]));
    for (const leftover of leftovers) {
      if (leftover.mode === "create") {
        await dropTable(main);
        return { ...repair, undone: [leftover], droppedTable: true };
      }
      const undone = leftover.mode === null || (await undo(main, leftover));
      await unmarkImport(main, marks.get(leftover.uuid)!);
      (undone ? repair.undone : repair.completed).push(leftover);
    }
    repair.brokenLocks = await staleLocks(main);
    await unlockIds(
      main,
      repair.brokenLocks.map((l) => l.tag),
    );
    return repair;
  } finally {
    if (!repair.droppedTable) main.sdk.close();
  }
}

/** Undoes one leftover append, replace or overwrite; false for a replace that had completed. */
async function undo(main: LanceTable, leftover: LeftoverImport): Promise<boolean> {
  const { mode, version, ids } = leftover as LeftoverImport & { mode: ImportMode; version: number };
  return withData(main, leftover.branch, async (data) => {
    if (mode === "overwrite") {
      if ((await countRows(data, importedRows(mode, version, ids))) > 0) await restoreVersion(data, version);
      return true;
    }
    if (mode === "replace" && (await replaceLanded(data, version, ids))) return false;
    await deleteWhere(data, `${idFilter(ids)} AND _row_created_at_version > ${version}`);
    return true;
  });
}

/** True when a replace's delete of the old rows landed: the ids had rows at `version` and have none created by then. */
async function replaceLanded(data: LanceTable, version: number, ids: readonly string[]): Promise<boolean> {
  const old = `${idFilter(ids)} AND _row_created_at_version <= ${version}`;
  if ((await countRows(data, old)) > 0) return false;
  const then = await checkoutVersion(data, version);
  try {
    return (await countRows(then, idFilter(ids))) > 0;
  } finally {
    then.sdk.close();
  }
}

/** The filter of the rows an import committed after `version`. */
function importedRows(mode: ImportMode, version: number, ids: readonly string[]): string | undefined {
  if (mode === "create") return undefined;
  const after = `_row_created_at_version > ${version}`;
  return mode === "overwrite" ? after : `${idFilter(ids)} AND ${after}`;
}

function idFilter(ids: readonly string[]): string {
  return `(${col("__global_attrs__.id")
    .isIn([...ids])
    .toSql()})`;
}

/** Runs `fn` on a handle of `branch` (`main` itself for null). */
async function withData<T>(main: LanceTable, branch: string | null, fn: (data: LanceTable) => Promise<T>): Promise<T> {
  if (branch === null) return fn(main);
  const data = await openTable(main.uri, {
    ...(main.storageOptions === undefined ? {} : { storageOptions: main.storageOptions }),
    branch,
  });
  try {
    return await fn(data);
  } finally {
    data.sdk.close();
  }
}

/** The leftover imports and stale locks of the table (a handle of `main`), as `check` reports them. */
export async function importLeftovers(
  main: LanceTable,
): Promise<{ leftoverImports: LeftoverImport[]; staleLocks: StaleLock[] }> {
  return { leftoverImports: await leftoverImports(main), staleLocks: await staleLocks(main) };
}
