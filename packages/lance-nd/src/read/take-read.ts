/**
 * Reading rows by takes: the rows cut into bounded runs, one Lance take a
 * run, a few takes in flight. Each take reads exactly its rows, so the rows in
 * memory are the takes in flight and the batch the consumer holds, whatever
 * the table's size: Lance's own scan reads ahead on its own (measured: +0.6 to
 * +0.8 GiB for 1 GiB tables, whatever the batch size) and cannot be told not to
 * through lancedb 0.39's Node SDK (SDK-NOTES.md, section 12).
 *
 * A scan takes the rows of a filter by `_rowid` (a scan of no data column
 * finds them); when key indexes answer the filter, it reads the first of
 * them by one filtered scan bounded to a take's worth of rows (its limit
 * bounds Lance's read-ahead) and looks up the rest only when more match. It
 * takes the rows of an unfiltered read by offset (no lookup: one call per
 * run however many fragments the rows span, where a Lance scan pays for
 * every fragment; SDK-NOTES.md, section 17). A dataset read takes the rows
 * its plan names, in runs of about a byte budget (dataset/take-groups.ts).
 */
import type { RecordBatch } from "apache-arrow";
import type { LanceTable } from "../lance/table-open.js";
import { scanRows, takeOffsets, takeRows } from "../lance/table-read.js";
import { ROW_ID, batchRows, withoutRowId } from "./read-plan.js";
import { readAhead } from "./read-ahead.js";
import { dataBytes } from "../lance/data-bytes.js";

/** One take: ascending `_rowid`s or ascending offsets in the pinned version. */
export type TakeRun = { rowIds: bigint[] } | { offsets: number[] };

/**
 * Takes `columns` (undefined: all) of each run of `runs` from `view` (a
 * handle pinned to one version, so ids and offsets name the same rows as
 * when they were found) and yields `map(batches, run)` in the order of the
 * runs, with up to `readahead` further takes in flight. Rows come back in
 * ascending id or offset order.
 */
export function takeRuns<R extends TakeRun, T>(
  view: LanceTable,
  runs: AsyncIterable<R> | Iterable<R>,
  columns: readonly string[] | undefined,
  readahead: number,
  map: (batches: RecordBatch[], run: R) => T,
): AsyncGenerator<T> {
  const take = async (run: R): Promise<T> =>
    map(
      "rowIds" in run ? await takeRows(view, run.rowIds, columns) : await takeOffsets(view, run.offsets, columns),
      run,
    );
  return readAhead(asAsync(runs), readahead, take);
}

/** The batch limits of a scan by takes. */
export interface TakeLimits {
  /** At most this many rows a take. */
  batchSize: number;
  /** About this many bytes (in memory) a take at most. */
  batchSizeBytes: number;
  /** Takes requested ahead of the consumer. */
  readahead: number;
}

/**
 * Which rows a scan by takes reads: the first `count` of the version, or
 * those that match a Lance filter (all: undefined). `indexed`: key indexes
 * answer the whole filter and cover every row, so a filtered scan finds the
 * rows without reading the big columns of the others.
 */
type TakeRows = { count: number } | FilteredRows;

/** The rows of a filter, at most `limit` of them. */
interface FilteredRows {
  filter: string | undefined;
  limit: number | undefined;
  indexed: boolean;
}

/** What a scan by takes reads. */
export interface TakeRequest {
  /** The columns of each row, as the SDK's `select` takes them; undefined: all. */
  columns: readonly string[] | undefined;
  rows: TakeRows;
  /** In-memory bytes of one row of `columns` (from {@link rowBytes}): sizes the first takes. */
  bytesPerRow: number;
}

/**
 * Reads `request` from `view` (pinned to one version) and yields
 * `decode(batch)` of each take's batches, in table order. A take holds at
 * most `batchSize` rows and about `batchSizeBytes` at the largest bytes per
 * row seen so far (never fewer than one row); at most `readahead + 1` takes
 * run at once.
 */
export function takeRead<T>(
  view: LanceTable,
  request: TakeRequest,
  limits: TakeLimits,
  decode: (batch: RecordBatch) => T[],
): AsyncGenerator<T[]> {
  const size = { bytesPerRow: request.bytesPerRow };
  const learn = (batches: readonly RecordBatch[], rows: number): void => {
    const bytes = batches.reduce((sum, rb) => sum + dataBytes(rb.data), 0);
    size.bytesPerRow = Math.max(size.bytesPerRow, bytes / Math.max(1, rows));
  };
  const cap = (): number => batchRows(limits.batchSize, limits.batchSizeBytes, size.bytesPerRow);
  const take = (runs: AsyncIterable<TakeRun> | Iterable<TakeRun>) =>
    takeRuns(view, runs, request.columns, limits.readahead, (batches, run) => {
      learn(batches, ("rowIds" in run ? run.rowIds : run.offsets).length);
      return batches.flatMap(decode);
    });
  if ("count" in request.rows) return take(offsetRuns(request.rows.count, cap));
  return filteredRead(view, request.columns, request.rows, cap, learn, decode, take);
}

/**
 * The rows of a filtered read. When key indexes answer the filter, first one
 * filtered scan bounded to one take's worth of rows (`cap()`): a point read
 * is then one Lance call instead of a `_rowid` lookup and a take (SDK-NOTES.md,
 * section 23), and only when it fills are the `_rowid`s of the other
 * matching rows looked up and taken in runs. Without such indexes a filtered
 * scan decodes the big columns of every row it passes (1.3 s for one row of
 * 256 MiB), so the rows are looked up and taken from the start.
 */
async function* filteredRead<T>(
  view: LanceTable,
  columns: readonly string[] | undefined,
  rows: FilteredRows,
  cap: () => number,
  learn: (batches: readonly RecordBatch[], rows: number) => void,
  decode: (batch: RecordBatch) => T[],
  take: (runs: AsyncIterable<TakeRun>) => AsyncGenerator<T[]>,
): AsyncGenerator<T[]> {
  if (!rows.indexed) {
    yield* take(rowIdRuns(view, rows, cap, new Set()));
    return;
  }
  const first = Math.min(cap(), rows.limit ?? Number.POSITIVE_INFINITY);
  const probe: RecordBatch[] = [];
  const options = {
    ...(columns === undefined ? {} : { columns }),
    ...(rows.filter === undefined ? {} : { filter: rows.filter }),
    limit: first,
    maxBatchLength: first,
    withRowId: true,
  };
  for await (const batch of scanRows(view, options)) probe.push(batch);
  const seen = new Set<bigint>();
  for (const batch of probe)
    for (const chunk of batch.getChild(ROW_ID)?.data ?? [])
      for (const id of (chunk.values as BigUint64Array).subarray(chunk.offset, chunk.offset + chunk.length))
        seen.add(id);
  learn(probe, seen.size);
  if (seen.size > 0) yield probe.flatMap((batch) => decode(withoutRowId(batch)));
  if (seen.size < first || seen.size === rows.limit) return;
  yield* take(rowIdRuns(view, rows, cap, seen));
}

/**
 * The in-memory bytes of one row of `columns`: a take of the table's first
 * row (bounded by one row, unlike a scan with a limit, which reads ahead).
 * 0 for an empty table.
 */
export async function rowBytes(lance: LanceTable, columns: readonly string[] | undefined): Promise<number> {
  return (await takeOffsets(lance, [0], columns)).reduce((sum, rb) => sum + dataBytes(rb.data), 0);
}

/** Offsets 0 to `count - 1` in runs of at most `cap()`. */
function* offsetRuns(count: number, cap: () => number): Generator<TakeRun> {
  for (let start = 0; start < count; ) {
    const end = Math.min(count, start + cap());
    yield { offsets: Array.from({ length: end - start }, (_, i) => start + i) };
    start = end;
  }
}

/**
 * The `_rowid`s of the rows that match `rows.filter`, but those in `skip`
 * (already read), cut into ascending runs of at most `cap()` ids.
 */
async function* rowIdRuns(
  view: LanceTable,
  rows: FilteredRows,
  cap: () => number,
  skip: ReadonlySet<bigint>,
): AsyncGenerator<TakeRun> {
  let run: bigint[] = [];
  let limit = cap();
  const options = {
    columns: [ROW_ID],
    ...(rows.filter === undefined ? {} : { filter: rows.filter }),
    ...(rows.limit === undefined ? {} : { limit: rows.limit }),
  };
  for await (const batch of scanRows(view, options)) {
    for (const chunk of batch.getChild(ROW_ID)?.data ?? []) {
      const ids = chunk.values as BigUint64Array;
      for (let i = chunk.offset; i < chunk.offset + chunk.length; i++) {
        const id = ids[i]!;
        if (skip.has(id)) continue;
        if (run.length >= limit || (run.length > 0 && id < run[run.length - 1]!)) {
          yield { rowIds: run };
          run = [];
          limit = cap();
        }
        run.push(id);
      }
    }
  }
  if (run.length > 0) yield { rowIds: run };
}

async function* asAsync<T>(items: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
