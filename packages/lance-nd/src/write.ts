/** `write` and `append`: a stream of nd record batches into a table, as one call. */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { isLanceNdError, LanceNdError } from "./errors.js";
import type { AppendOptions, WriteOptions } from "./options.js";
import type { NdTable } from "./table.js";
import { NdWriter } from "./writer.js";

/** The rows of a write: nd record batches, one per table row, synchronous or asynchronous. */
export type NdRows = Iterable<NdRecordBatch> | AsyncIterable<NdRecordBatch>;

/**
 * Creates (mode "create", the default), appends to ("append") or replaces
 * ("overwrite") the table at `uri` with `rows`, and returns it. Each row is
 * checked against the table and cast as `casting` says before anything is
 * written; new variables, attribute keys and global attributes become new
 * all-null columns first. Rows that fit one Lance add (`targetFragmentBytes`,
 * 128 MiB on disk) are ONE version; more rows take one version per add.
 * When the call fails, the rows it committed are removed again (an
 * overwrite gets the old version back), so the table keeps the rows it had;
 * its version may have moved on. With no rows, "create" makes a table
 * without columns.
 *
 * @throws LanceNdError `InvalidInput` (bad options or uri, a reserved or bad
 * name, rows without arrays and global attributes into a table without
 * columns, which Lance would not keep), `TableExists`, `TableNotFound` ("append"), `SchemaMismatch` (a type
 * that does not fit, naming the variable, both types and the casting mode),
 * `CommitConflict`, `WriterFailed`.
 * @example
 * const table = await write("data/sst.lance", batches, { stats: true, columnDefaults: { compression: "zstd" } });
 */
export async function write(uri: string, rows: NdRows, options: WriteOptions = {}): Promise<NdTable> {
  return writeAll(await NdWriter.create(uri, options), rows);
}

/**
 * Appends `rows` to the latest version of `table`, as {@link write} with
 * mode "append" does, and returns the table.
 *
 * @throws LanceNdError as {@link write}; `InvalidInput` for a read-only view.
 * @example
 * await append(table, moreBatches, { casting: "safe" });
 */
export async function append(table: NdTable, rows: NdRows, options: AppendOptions = {}): Promise<NdTable> {
  return writeAll(await NdWriter.append(table, options), rows);
}

async function writeAll(writer: NdWriter, rows: NdRows): Promise<NdTable> {
  try {
    for await (const batch of rows) await writer.write(batch);
    return await writer.finish();
  } catch (err) {
    await writer.abort(err).catch(() => undefined);
    throw firstError(err);
  }
}

/** The error that made the writer fail, rather than the writer's `WriterFailed` wrapper. */
function firstError(err: unknown): unknown {
  if (isLanceNdError(err, "WriterFailed") && err.cause instanceof LanceNdError) return err.cause;
  return err;
}
