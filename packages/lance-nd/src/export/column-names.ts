/**
 * Variable names a table cannot have as column names, mapped reversibly
 * (CLI README, "Import"): Lance refuses `.` in a column name and a backtick
 * cannot be read back. Import stores such a variable under its name with `.`
 * as `%2E` and a backtick as `%60` (and `%` itself as `%25`, so that the
 * mapping is one to one); export and the Zarr store (README "Serving as
 * Zarr") give the file its own names back.
 */
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";

const ESCAPES: Readonly<Record<string, string>> = { "%": "%25", ".": "%2E", "`": "%60" };
const UNESCAPES: Readonly<Record<string, string>> = { "%25": "%", "%2E": ".", "%60": "`" };

/** The column name of a variable name. */
export function toColumnName(name: string): string {
  return name.replace(/[%.`]/g, (c) => ESCAPES[c]!);
}

/** The variable name of a column name ({@link toColumnName} undone). */
function fromColumnName(column: string): string {
  return column.replace(/%(25|2E|60)/g, (code) => UNESCAPES[code]!);
}

/** The row with its variables under their column names (the same row when no name changes). */
export function withColumnNames(row: NdRecordBatch): NdRecordBatch {
  return renamed(row, toColumnName);
}

/** The dataset with its variables under the file's names again. */
export function withSourceNames(dataset: NdRecordBatch): NdRecordBatch {
  return renamed(dataset, fromColumnName);
}

function renamed(batch: NdRecordBatch, rename: (name: string) => string): NdRecordBatch {
  const arrays = batch.arrays();
  if (arrays.every(([name]) => rename(name) === name)) return batch;
  return new NdRecordBatch(
    arrays.map(([name, array]): [string, NdArray] => [rename(name), array]),
    batch.globalAttrs,
  );
}
