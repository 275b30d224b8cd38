/**
 * Streaming versions of encode and decode over (async) iterables.
 */
import type { RecordBatch } from "apache-arrow";
import { NdArrowError } from "./errors.js";
import { encodeRows } from "./encode.js";
import type { EncodeOptions } from "./encode.js";
import { decodeRows } from "./decode.js";
import type { DecodeOptions } from "./decode.js";
import type { NdRecordBatch } from "./batch.js";

/** Options of {@link encodeStream}. */
export interface EncodeStreamOptions extends EncodeOptions {
  /** Rows (NdRecordBatches) per output RecordBatch; default 256. */
  rowsPerBatch?: number;
}

/**
 * Encodes a stream of NdRecordBatches into RecordBatches of at most
 * `rowsPerBatch` rows each. Without `schema`, each output batch has the
 * union schema of its own rows; pass `schema` for one schema throughout.
 * Errors name the row counted from the start of the stream.
 *
 * @example
 * for await (const rb of encodeStream(batches, { rowsPerBatch: 64 })) writer.write(rb);
 */
export async function* encodeStream(
  batches: AsyncIterable<NdRecordBatch> | Iterable<NdRecordBatch>,
  options: EncodeStreamOptions = {},
): AsyncGenerator<RecordBatch> {
  const { rowsPerBatch = 256, ...encodeOptions } = options;
  if (!Number.isInteger(rowsPerBatch) || rowsPerBatch < 1) {
    throw new NdArrowError("InvalidArgument", `rowsPerBatch must be a positive integer, got ${rowsPerBatch}`);
  }
  let rows: NdRecordBatch[] = [];
  let firstRow = 0;
  for await (const batch of batches) {
    rows.push(batch);
    if (rows.length === rowsPerBatch) {
      yield encodeRows(rows, encodeOptions, firstRow);
      firstRow += rows.length;
      rows = [];
    }
  }
  if (rows.length > 0) yield encodeRows(rows, encodeOptions, firstRow);
}

/**
 * Decodes a stream of RecordBatches into NdRecordBatches, one per row.
 * Errors name the row counted from the start of the stream.
 *
 * @example
 * for await (const batch of decodeStream(reader, { nulls: "absent" })) console.log(batch.grid());
 */
export async function* decodeStream(
  batches: AsyncIterable<RecordBatch> | Iterable<RecordBatch>,
  options: DecodeOptions = {},
): AsyncGenerator<NdRecordBatch> {
  let firstRow = 0;
  for await (const rb of batches) {
    yield* decodeRows(rb, options, firstRow);
    firstRow += rb.numRows;
  }
}
