// Rows and checks for the write-half tests: small nd record batches, the
// rows of a table read back through the SDK layer, and error capture.
import { decodeRows } from "@lance-nd/format";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { failure as anyFailure } from "@lance-nd/test-helpers";
import type { DataType } from "apache-arrow";
import { isLanceNdError } from "../../src/errors.js";
import { scanRows } from "../../src/lance/table-read.js";
import type { NdTable } from "../../src/table.js";

/** Row `i`: `sst` Float32 [lat 2, lon 3] with values 10*i + j and attr units "K", global attr id "r<i>". */
export function sstRow(i: number, options: { type?: DataType; values?: number[]; id?: string } = {}): NdRecordBatch {
  const values = options.values ?? Array.from({ length: 6 }, (_, j) => 10 * i + j);
  const sst = NdArray.from(options.type === undefined ? Float32Array.from(values) : values, {
    dims: { lat: 2, lon: 3 },
    attrs: { units: "K" },
    ...(options.type === undefined ? {} : { type: options.type }),
  });
  return new NdRecordBatch({ sst }, { id: options.id ?? `r${i}` });
}

/** Rows `first` .. `first + n - 1` of {@link sstRow}. */
export function sstRows(n: number, first = 0): NdRecordBatch[] {
  return Array.from({ length: n }, (_, i) => sstRow(first + i));
}

/** A row with `size` Float32 values in one array `big` (about 4 * size bytes). */
export function bigRow(i: number, size: number): NdRecordBatch {
  const values = new Float32Array(size);
  for (let j = 0; j < size; j++) values[j] = i + j * 0.5;
  return new NdRecordBatch({ big: NdArray.from(values, { dims: { x: size } }) }, { id: `b${i}` });
}

/** Every row of the table's latest version, decoded (stats left out). */
export async function readRows(table: NdTable): Promise<NdRecordBatch[]> {
  const rows: NdRecordBatch[] = [];
  for await (const rb of scanRows(table.lance)) rows.push(...decodeRows(rb));
  return rows;
}

/** The `id` global attribute of each row, sorted. */
export async function readIds(table: NdTable): Promise<string[]> {
  return (await readRows(table)).map((row) => String(row.globalAttr("id"))).sort();
}

/**
 * The code, column, retryable flag and message of the LanceNdError that
 * `run` (a promise, or a function whose call may throw or reject) fails
 * with; `{}` when it succeeds.
 */
export async function failure(
  run: Promise<unknown> | (() => unknown),
): Promise<{ code?: string; column?: string; retryable?: boolean; message?: string }> {
  const err = await anyFailure(run);
  if (err === undefined) return {};
  if (isLanceNdError(err))
    return { code: err.code, column: err.column, retryable: err.retryable, message: err.message };
  return { code: `not a LanceNdError: ${String(err)}` };
}

/** An async iterable over `rows`, for the AsyncIterable input of write/append. */
export async function* asyncRows(rows: readonly NdRecordBatch[]): AsyncGenerator<NdRecordBatch> {
  for (const row of rows) yield row;
}
