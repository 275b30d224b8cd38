/**
 * The attributes of a dataset made of several files (README, "Many files,
 * one dataset"): files imported together may differ in attributes (a
 * title, a storage attribute such as `_ChunkSizes`), and the first file's
 * are the dataset's, as xarray's `combine_attrs="override"` takes them.
 */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { SOURCE_FILE_ATTR } from "../write/concat-sources.js";

/**
 * `rows` (each with a `chunk_offset` on one grid) with the global and array
 * attributes of the first of them on the grid (row-major order of their
 * offsets), without `_SourceFile`, each keeping its own `chunk_offset`: what
 * nd-arrow's `assemble` joins.
 */
export function withFirstFileAttrs(rows: readonly NdRecordBatch[]): NdRecordBatch[] {
  if (rows.length === 0) return [];
  const offsets = rows.map((row) => Array.from(row.globalAttrs.get(CHUNK_OFFSET)!.value as Iterable<number>, Number));
  let first = 0;
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [offsets[i]!, offsets[first]!];
    const d = a.findIndex((v, k) => v !== b[k]);
    if (d >= 0 && a[d]! < b[d]!) first = i;
  }
  const globals = new Map(rows[first]!.globalAttrs);
  globals.delete(SOURCE_FILE_ATTR);
  const attrs = new Map(rows[first]!.arrays().map(([name, array]) => [name, array.attrs]));
  return rows.map((row) =>
    row
      .withArrays(row.arrays().map(([name, array]) => [name, array.withAttrs(attrs.get(name) ?? array.attrs)] as const))
      .withGlobalAttrs(new Map([...globals, [CHUNK_OFFSET, row.globalAttrs.get(CHUNK_OFFSET)!]])),
  );
}
