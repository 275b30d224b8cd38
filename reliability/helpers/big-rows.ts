// Tables of large rows for the memory tests, generated on the fly (never
// committed): row i holds one Float32 variable `v` of `rowBytes` bytes whose
// value j is ((i * 7 + j) % 1000) / 2, so a reader can check any value.
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { write, type NdTable } from "lance-nd";

/** MiB in bytes. */
export const MiB = 2 ** 20;

/** The value j of row i. */
export function bigValue(i: number, j: number): number {
  return ((i * 7 + j) % 1000) / 2;
}

/** Row `i`: `v` Float32 [x = rowBytes / 4], global attribute `id` = `r<i>`. */
export function bigRow(i: number, rowBytes: number): NdRecordBatch {
  const values = new Float32Array(rowBytes / 4);
  for (let j = 0; j < values.length; j++) values[j] = bigValue(i, j);
  return new NdRecordBatch({ v: NdArray.from(values, { dims: { x: values.length } }) }, { id: `r${i}` });
}

/** Writes `rows` rows of `rowBytes` each (one generated at a time) as a new table. */
export async function writeBigTable(uri: string, rowBytes: number, rows: number): Promise<NdTable> {
  async function* generate(): AsyncGenerator<NdRecordBatch> {
    for (let i = 0; i < rows; i++) yield bigRow(i, rowBytes);
  }
  return write(uri, generate());
}
