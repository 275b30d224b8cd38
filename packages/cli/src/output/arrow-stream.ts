/** `scan --arrow`: rows nd-arrow encoded, written as one Arrow IPC stream while they are read. */
import { RecordBatchStreamWriter, type Schema } from "apache-arrow";
import { encode, type NdRecordBatch } from "@lance-nd/nd-arrow";
import type { SinkWriter } from "./sink-writer.js";

/** At most this many rows per record batch of the stream. */
const BATCH_ROWS = 64;
/** About this many value bytes per record batch of the stream (a larger row is a batch alone). */
const BATCH_BYTES = 8 * 2 ** 20;

/**
 * Writes `rows` as an Arrow IPC stream in `schema` (every batch has it):
 * rows are encoded in record batches of at most 64 rows and about 8 MiB,
 * and each batch's bytes go to `out` before the next row is read, so memory
 * holds one batch of rows (plus its encoded copy) at a time.
 */
export async function writeArrowStream(
  out: SinkWriter,
  schema: Schema,
  rows: AsyncIterable<NdRecordBatch>,
): Promise<void> {
  const writer = new RecordBatchStreamWriter();
  writer.reset(undefined, schema);
  const chunks = writer[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<Uint8Array>> | undefined;
  const nothing = Symbol("nothing queued");
  /** Writes the bytes the writer has queued so far (the queue answers at once when it holds some). */
  const drain = async (): Promise<void> => {
    for (;;) {
      next ??= chunks.next();
      const result = await Promise.race([next, Promise.resolve(nothing)]);
      if (result === nothing) return;
      next = undefined;
      if (result.done === true) return;
      await out.bytes(result.value);
    }
  };
  let pending: NdRecordBatch[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    writer.write(encode(pending, { schema }));
    pending = [];
    bytes = 0;
    await drain();
  };
  for await (const row of rows) {
    pending.push(row);
    for (const [, array] of row.arrays())
      bytes += array.values.data.reduce((sum, data) => sum + (data.values?.byteLength ?? 0), 0);
    if (pending.length === BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
  }
  if (pending.length > 0) await flush();
  writer.finish();
  await drain();
}
