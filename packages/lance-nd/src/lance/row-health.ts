/**
 * Which rows of a table version can be read: every row is taken with all
 * its columns, a fragment at a time in chunks of bounded bytes; a chunk that
 * fails is split until the failing rows are found. Used by `check`.
 */
import type { RecordBatch } from "apache-arrow";
import { isLanceNdError } from "../errors.js";
import type { LanceTable } from "./table-open.js";
import { readTableSchema, scanRows, tableBytes, takeRows } from "./table-read.js";

/** A row that cannot be read, and why. */
export interface UnreadableRow {
  /** Lance's `_rowid`: `table.delete("_rowid IN (…)")` removes it. */
  rowId: number;
  /** The fragment that holds it (`_rowaddr >> 32`). */
  fragment: number;
  /** The row's offset in its fragment. */
  offset: number;
  /** The reader's error. */
  error: string;
}

/** One fragment of the version read. */
export interface FragmentHealth {
  /** The fragment id. */
  id: number;
  /** Its live rows. */
  rows: number;
  /** Rows of it that cannot be read. */
  unreadable: number;
  /** False when its rows were not read (a file of it could not be opened: `check`'s `inaccessibleFiles`). */
  read: boolean;
}

/** What reading every row found. */
export interface RowHealth {
  fragments: FragmentHealth[];
  unreadableRows: UnreadableRow[];
}

/** Bytes of rows taken at once: bounds the memory of a check by about this plus one row. */
const CHUNK_BYTES = 64 * 1024 * 1024;

/** Options of {@link rowHealth}. */
export interface RowHealthOptions {
  /** Fragments whose rows are counted, not read. */
  skip?: ReadonlySet<number>;
  /** Called with every batch of rows read, which then holds `_rowid` and every column. */
  onRows?: (batch: RecordBatch) => void;
}

/**
 * Reads every row of `table`'s version with all columns and reports the
 * rows (and fragments) that fail. Row ids and addresses come from Lance's
 * metadata, which holds when data files do not.
 */
export async function rowHealth(table: LanceTable, options: RowHealthOptions = {}): Promise<RowHealth> {
  const skip = options.skip ?? new Set<number>();
  const byFragment = new Map<number, Array<{ rowId: bigint; offset: number }>>();
  for await (const batch of scanRows(table, { columns: ["_rowid", "_rowaddr"] })) {
    const ids = column(batch, "_rowid");
    const addresses = column(batch, "_rowaddr");
    for (let i = 0; i < ids.length; i++) {
      const fragment = Number(addresses[i]! >> 32n);
      let rows = byFragment.get(fragment);
      if (rows === undefined) {
        rows = [];
        byFragment.set(fragment, rows);
      }
      rows.push({ rowId: ids[i]!, offset: Number(addresses[i]! & 0xffffffffn) });
    }
  }
  const total = [...byFragment.values()].reduce((n, rows) => n + rows.length, 0);
  const rowBytes = total === 0 ? 1 : Math.max(1, (await tableBytes(table)) / total);
  const chunkRows = Math.max(1, Math.floor(CHUNK_BYTES / rowBytes));
  const take = await rowTaker(table, options.onRows);

  const fragments: FragmentHealth[] = [];
  const unreadableRows: UnreadableRow[] = [];
  for (const [id, rows] of [...byFragment].sort((a, b) => a[0] - b[0])) {
    const before = unreadableRows.length;
    if (skip.has(id)) {
      fragments.push({ id, rows: rows.length, unreadable: 0, read: false });
      continue;
    }
    for (let start = 0; start < rows.length; start += chunkRows) {
      await findUnreadable(table, take, rows.slice(start, start + chunkRows), (row, error) =>
        unreadableRows.push({ rowId: Number(row.rowId), fragment: id, offset: row.offset, error }),
      );
    }
    fragments.push({ id, rows: rows.length, unreadable: unreadableRows.length - before, read: true });
  }
  return { fragments, unreadableRows };
}

/** Takes rows by id with every column; with `onRows`, also `_rowid`, and hands each batch to it. */
async function rowTaker(
  table: LanceTable,
  onRows: RowHealthOptions["onRows"],
): Promise<(rowIds: bigint[]) => Promise<void>> {
  if (onRows === undefined) return async (rowIds) => void (await takeRows(table, rowIds));
  const columns = ["_rowid", ...(await readTableSchema(table)).fields.map((f) => f.name)];
  return async (rowIds) => {
    for (const batch of await takeRows(table, rowIds, columns)) onRows(batch);
  };
}

/** Takes `rows`; on a failure, halves until each failing row is found. */
async function findUnreadable(
  table: LanceTable,
  take: (rowIds: bigint[]) => Promise<void>,
  rows: ReadonlyArray<{ rowId: bigint; offset: number }>,
  onUnreadable: (row: { rowId: bigint; offset: number }, error: string) => void,
): Promise<void> {
  try {
    await take(rows.map((r) => r.rowId));
  } catch (err) {
    if (!isLanceNdError(err)) throw err;
    if (rows.length === 1) {
      onUnreadable(rows[0]!, err.message.replace(`table "${table.uri}": `, ""));
      return;
    }
    const middle = rows.length >> 1;
    await findUnreadable(table, take, rows.slice(0, middle), onUnreadable);
    await findUnreadable(table, take, rows.slice(middle), onUnreadable);
  }
}

/** A UInt64 column of a batch as its values. */
function column(batch: RecordBatch, name: string): BigUint64Array | BigInt64Array {
  const vector = batch.getChild(name);
  if (vector === null) throw new Error(`the scan returned no ${name} column`);
  return vector.toArray() as BigUint64Array;
}
