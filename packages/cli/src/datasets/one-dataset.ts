/** The rows a filter selected, as one dataset: checked to be one, then read through lance-nd's dataset view. */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { scan } from "lance-nd";
import type { NdTable } from "lance-nd";
import type { SelectionOptions } from "../args/selection.js";
import { CliError } from "../errors.js";
import { readRegion } from "./read-region.js";

/** What {@link readDataset} read. */
export interface DatasetRead {
  /** The dataset: the arrays of `names` (all arrays without them). */
  dataset: NdRecordBatch;
  /** The table rows it came from. */
  rows: number;
}

/**
 * Reads the rows that `where` selects (all rows without it) as one dataset,
 * narrowed by the `--isel` / `--sel` of `options`: the dataset view of the
 * rows (lance-nd README "Datasets": its grid starts at the rows' smallest
 * `chunk_offset`, and the result has none), with only the arrays `names`.
 *
 * Throws `CliError` `InvalidArgument` when no row matches, or several rows
 * match that are not all chunks (no `chunk_offset`), naming their ids;
 * lance-nd's `InvalidInput` for rows of several datasets and for cells the
 * read needs that no row holds.
 */
export async function readDataset(
  table: NdTable,
  where: string | undefined,
  names: readonly string[] | undefined,
  options: SelectionOptions = {},
): Promise<DatasetRead> {
  checkOneDataset(await globalsOf(table, where), where);
  return readRegion(table, where, names, options);
}

/** The global attributes alone of the rows `where` selects. */
function globalsOf(table: NdTable, where: string | undefined): Promise<NdRecordBatch[]> {
  let query = scan(table).project([]);
  if (where !== undefined) query = query.filter(where);
  return query.toArray();
}

function checkOneDataset(rows: readonly NdRecordBatch[], where: string | undefined): void {
  const filter = where === undefined ? "the table" : `--where ${where}`;
  if (rows.length === 0) throw new CliError("InvalidArgument", `no row matches ${filter}`);
  if (rows.length > 1 && rows.some((row) => !row.globalAttrs.has(CHUNK_OFFSET))) {
    const ids = [...new Set(rows.map((row) => String(row.globalAttr("id") ?? "?")))].slice(0, 5);
    throw new CliError(
      "InvalidArgument",
      `${rows.length} rows match ${filter} and they are not chunks of one dataset (ids ${ids.join(", ")}); select one, e.g. --where "__global_attrs__.id = '${ids[0]}'"`,
    );
  }
}
