/**
 * Reading rows by takes: the `_rowid`s of the matching rows first (a scan of
 * no data column), then the wanted columns of a bounded run of those rows per
 * Lance take. Each take reads exactly its rows, so the rows in memory are the
 * takes in flight (the read-ahead) and the batch the consumer holds, whatever
 * the table's size: Lance's own scan reads ahead on its own (measured: +0.6 to
 * +0.8 GiB for 1 GiB tables, whatever the batch size) and cannot be told not to
 * through lancedb 0.39's Node SDK (SDK-NOTES.md, section 12).
 */
import type { RecordBatch } from "apache-arrow";
import type { LanceTable } from "./lance/table-open.js";
import { scanRows, takeRows } from "./lance/table-read.js";
import { ROW_ID, batchRows } from "./read-plan.js";
import { readAhead } from "./read-ahead.js";
import { dataBytes } from "./data-bytes.js";

/** The batch limits of a read by takes. */
export interface TakeLimits {
  /** At most this many rows a take. */
  batchSize: number;
  /** About this many bytes (in memory) a take at most. */
  batchSizeBytes: number;
  /** Takes requested ahead of the consumer. */
  readahead: number;
}

/** What a read by takes reads. */
export interface TakeRequest {
  /** The columns of each row, as the SDK's `select` takes them; undefined: all. */
  columns: readonly string[] | undefined;
  /** The Lance SQL filter of the row ids, undefined for all rows. */
  filter: string | undefined;
  /** At most this many rows. */
  limit: number | undefined;
  /** In-memory bytes of one row of `columns` (from {@link rowBytes}): sizes the first takes. */
  bytesPerRow: number;
}

/**
 * Reads `request` from `view` (a handle pinned to one version, so the row ids
 * and the takes see the same rows) and yields `decode(batch)` of each take's batches, in
 * table order. Takes return rows in row id order, so each take gets one
 * ascending run of ids. A take holds at most `batchSize` rows and about
 * `batchSizeBytes` at the largest bytes per row seen so far (never fewer than
 * one row); at most `readahead + 1` takes run at once.
 */
export async function* takeRead<T>(
  view: LanceTable,
  request: TakeRequest,
  limits: TakeLimits,
  decode: (batch: RecordBatch) => T[],
): AsyncGenerator<T[]> {
  const size = { bytesPerRow: request.bytesPerRow };
  const cap = (): number => batchRows(limits.batchSize, limits.batchSizeBytes, size.bytesPerRow);
  const take = async (run: bigint[]): Promise<T[]> => {
    const batches = await takeRows(view, run, request.columns);
    const bytes = batches.reduce((sum, rb) => sum + dataBytes(rb.data), 0);
    size.bytesPerRow = Math.max(size.bytesPerRow, bytes / run.length);
    return batches.flatMap(decode);
  };
  yield* readAhead(rowIdRuns(view, request, cap), limits.readahead, take);
}

/**
 * The in-memory bytes of one row of `columns`: a take of the table's first
 * row (bounded by one row, unlike a scan with a limit, which reads ahead).
 * 0 for an empty table.
 */
export async function rowBytes(lance: LanceTable, columns: readonly string[] | undefined): Promise<number> {
  for await (const run of rowIdRuns(lance, { filter: undefined, limit: 1 }, () => 1)) {
    return (await takeRows(lance, run, columns)).reduce((sum, rb) => sum + dataBytes(rb.data), 0);
  }
  return 0;
}

/** The `_rowid`s of the matching rows, cut into ascending runs of at most `cap()` ids. */
async function* rowIdRuns(
  view: LanceTable,
  request: Pick<TakeRequest, "filter" | "limit">,
  cap: () => number,
): AsyncGenerator<bigint[]> {
  let run: bigint[] = [];
  let limit = cap();
  const options = {
    columns: [ROW_ID],
    ...(request.filter === undefined ? {} : { filter: request.filter }),
    ...(request.limit === undefined ? {} : { limit: request.limit }),
  };
  for await (const batch of scanRows(view, options)) {
    for (const chunk of batch.getChild(ROW_ID)?.data ?? []) {
      const ids = chunk.values as BigUint64Array;
      for (let i = chunk.offset; i < chunk.offset + chunk.length; i++) {
        const id = ids[i]!;
        if (run.length >= limit || (run.length > 0 && id < run[run.length - 1]!)) {
          yield run;
          run = [];
          limit = cap();
        }
        run.push(id);
      }
    }
  }
  if (run.length > 0) yield run;
}
