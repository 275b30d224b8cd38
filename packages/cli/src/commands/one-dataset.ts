/** The rows a filter selected, as one dataset (assembled from its chunks). */
import { CHUNK_OFFSET, assemble } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { SOURCE_FILE_ATTR, scan } from "lance-nd";
import { withFirstFileAttrs } from "lance-nd/internal";
import type { NdTable } from "lance-nd";
import { CliError } from "../errors.js";

/** What {@link readDataset} read. */
export interface DatasetRead {
  /** The dataset: at least the arrays of `names` (all arrays when whole rows were read). */
  dataset: NdRecordBatch;
  /** The table rows it came from. */
  rows: number;
}

/**
 * Reads the rows that `where` selects (all rows without it) as one dataset
 * ({@link oneDataset}), with only the arrays `names` when the rows are not
 * chunks. A `chunk_offset` counts along the grid of the WHOLE row, which a
 * projection can change, so chunked rows are read whole, then assembled.
 */
export async function readDataset(
  table: NdTable,
  where: string | undefined,
  names?: readonly string[],
): Promise<DatasetRead> {
  const rows = await select(table, where, names);
  if (names !== undefined && rows.some((row) => row.globalAttrs.has(CHUNK_OFFSET))) {
    const whole = await select(table, where, undefined);
    return { dataset: oneDataset(whole, where), rows: whole.length };
  }
  return { dataset: oneDataset(rows, where), rows: rows.length };
}

function select(
  table: NdTable,
  where: string | undefined,
  names: readonly string[] | undefined,
): Promise<NdRecordBatch[]> {
  let query = scan(table);
  if (names !== undefined) query = query.project(names);
  if (where !== undefined) query = query.filter(where);
  return query.toArray();
}

/**
 * One dataset from the selected rows: a single row as it is (without a
 * `chunk_offset`), several rows assembled from their chunks (nd-arrow
 * `assemble`, which also drops `chunk_offset`).
 *
 * Throws `CliError` `InvalidArgument` when no row matched, or several rows
 * matched that are not all chunks (no `chunk_offset`); nd-arrow's
 * `ChunkMismatch` when chunks do not tile one grid.
 */
export function oneDataset(rows: readonly NdRecordBatch[], where: string | undefined): NdRecordBatch {
  const filter = where === undefined ? "the table" : `--where ${where}`;
  const [first] = rows;
  if (first === undefined) throw new CliError("InvalidArgument", `no row matches ${filter}`);
  if (rows.length === 1) {
    if (!first.globalAttrs.has(CHUNK_OFFSET)) return first;
    return first.withGlobalAttrs(new Map([...first.globalAttrs].filter(([key]) => key !== CHUNK_OFFSET)));
  }
  if (rows.some((row) => !row.globalAttrs.has(CHUNK_OFFSET))) {
    const ids = [...new Set(rows.map((row) => String(row.globalAttr("id") ?? "?")))].slice(0, 5);
    throw new CliError(
      "InvalidArgument",
      `${rows.length} rows match ${filter} and they are not chunks of one dataset (ids ${ids.join(", ")}); select one, e.g. --where "__global_attrs__.id = '${ids[0]}'"`,
    );
  }
  return assemble(rows.some((row) => row.globalAttrs.has(SOURCE_FILE_ATTR)) ? withFirstFileAttrs(rows) : rows);
}
