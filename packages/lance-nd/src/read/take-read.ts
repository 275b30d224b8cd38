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
 * its plan names, in runs of about a byte budget.
 */
import { DataType, Precision, type Float, type RecordBatch } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { decodeRows, selectName } from "@lance-nd/format";
import { LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { describeRow, type DatasetPlan, type PlannedRow } from "../dataset/plan.js";
import type { LanceTable } from "../lance/table-open.js";
import { scanRows, takeOffsets, takeRows } from "../lance/table-read.js";
import { ROW_ID, batchRows, withoutRowId } from "./read-plan.js";
import { readAhead } from "./read-ahead.js";
import { dataBytes } from "../write/data-bytes.js";

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
export type TakeRows = { count: number } | FilteredRows;

/** The rows of a filter, at most `limit` of them. */
export interface FilteredRows {
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

/** A row of a dataset read, taken: where it sits, and its requested variables and global attributes. */
export interface TakenRow {
  row: PlannedRow;
  batch: NdRecordBatch;
}

/**
 * The dataset rows `rows` taken in groups (in the order of `rows`), each
 * group at most `maxBytes` of values (uncompressed, estimated from the rows'
 * dim sizes; at least one row), one take a group, the next one only when
 * the consumer asks for it (a window holds its groups). Rows come back in row
 * id order within a group.
 *
 * @throws LanceNdError `InvalidInput` naming the row when a row lacks one of
 * `names` (a null array) or is gone from the pinned version.
 */
export function takeGroups(
  view: NdTable,
  plan: DatasetPlan,
  rows: readonly PlannedRow[],
  names: readonly string[],
  maxBytes: number,
): AsyncGenerator<TakenRow[]> {
  const columns = [...names.map(selectName), ...(view.layout.globalAttrs === null ? [] : [GLOBAL_ATTRS_COLUMN])];
  const bytesOf = rowValueBytes(plan, names);
  return takeRuns(view.lance, groupsOf(rows, bytesOf, maxBytes), columns, 0, (batches, run) =>
    checkedRows(view, run.rows, batches, names),
  );
}

/**
 * The bytes of the values of `names` in a dataset row (uncompressed,
 * estimated from the row's dim sizes): what a take of the row reads of them.
 */
export function rowValueBytes(plan: DatasetPlan, names: readonly string[]): (row: PlannedRow) => number {
  const variables = names.map((name) => plan.variables.find((v) => v.name === name)!);
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  return (row) =>
    variables.reduce(
      (sum, v) => sum + valueBytes(v.type) * v.dims.reduce((n, dim) => n * row.size[position.get(dim)!]!, 1),
      0,
    );
}

/** `rows` cut into groups of at most `maxBytes` (at least one row each), each sorted by row id. */
function* groupsOf(
  rows: readonly PlannedRow[],
  bytesOf: (row: PlannedRow) => number,
  maxBytes: number,
): Generator<{ rowIds: bigint[]; rows: PlannedRow[] }> {
  const sorted = (group: PlannedRow[]) => {
    const rows = [...group].sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
    return { rowIds: rows.map((row) => row.rowId), rows };
  };
  let group: PlannedRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = bytesOf(row);
    if (group.length > 0 && bytes + size > maxBytes) {
      yield sorted(group);
      group = [];
      bytes = 0;
    }
    group.push(row);
    bytes += size;
  }
  if (group.length > 0) yield sorted(group);
}

/** The taken `batches` of `sorted` (rows in row id order) decoded, each checked to hold `names`. */
function checkedRows(
  view: NdTable,
  sorted: readonly PlannedRow[],
  batches: readonly RecordBatch[],
  names: readonly string[],
): TakenRow[] {
  const decoded = withPureErrors({ uri: view.uri }, () => batches.flatMap((rb) => decodeRows(rb)));
  if (decoded.length !== sorted.length) {
    const row = sorted[decoded.length] ?? sorted[0]!;
    throw new LanceNdError(
      "InvalidInput",
      `dataset: ${describeRow(row.rowId, row.id)} is gone from the pinned version`,
      { uri: view.uri },
    );
  }
  return sorted.map((row, i) => {
    const batch = decoded[i]!;
    const missing = names.find((name) => !batch.has(name));
    if (missing !== undefined) {
      const message = `dataset: ${describeRow(row.rowId, row.id)} has no "${missing}" (null in this row)`;
      throw new LanceNdError("InvalidInput", message, { uri: view.uri, column: missing });
    }
    return { row, batch };
  });
}

/** Bytes per value of `type`, for the budget (variable-width values count 16). */
function valueBytes(type: DataType): number {
  if (DataType.isFloat(type))
    return [2, 4, 8][
      (type as Float).precision === Precision.HALF ? 0 : (type as Float).precision === Precision.SINGLE ? 1 : 2
    ]!;
  const bits = (type as { bitWidth?: number }).bitWidth;
  if (DataType.isBool(type)) return 1 / 8;
  return typeof bits === "number"
    ? bits / 8
    : DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type)
      ? 16
      : 8;
}

async function* asAsync<T>(items: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
