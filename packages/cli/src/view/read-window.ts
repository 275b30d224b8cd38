/**
 * The viewer's reads of a dataset: the 2-D window a heatmap shows and the
 * coordinates its axes and sliders are labelled with. The one module that
 * knows how a window is read from the table.
 *
 * Today it reads the dataset's rows with `scan` (filtered by `id`, only the
 * variable when the rows are not chunks), assembles chunks with nd-arrow
 * and cuts the slice with the plot command's `slice2d`; a table with one row
 * per dataset reads one row per window.
 */
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NdTable } from "lance-nd";
import { readDataset } from "../commands/one-dataset.js";
import { CliError } from "../errors.js";
import { decodeCf } from "../plot/plot-variable.js";
import { slice2d } from "../plot/slice.js";
import { datasetFilter } from "./catalog.js";

/** Which window to read. */
export interface WindowRequest {
  /** The dataset's `id` (null: the rows without one). */
  dataset: string | null;
  variable: string;
  /** An index along every dim but the two the window keeps (dims of size 1 may be left out). */
  isel: ReadonlyMap<string, number>;
}

/**
 * The 2-D window of `request.variable`: one NdArray of the same name, Float64,
 * dims (rows, cols) in the variable's order, values CF-decoded as `plot`
 * draws them (fill and missing values, nulls and NaN are NaN; scale and
 * offset applied), and the variable's attributes.
 *
 * Throws `CliError` `InvalidArgument` for an unknown variable or dataset,
 * a dim the variable lacks, an index out of range, or a selection that does
 * not leave two dims.
 */
export async function readWindow(table: NdTable, request: WindowRequest): Promise<NdRecordBatch> {
  const { variable } = request;
  if (!table.layout.arrays.has(variable)) {
    throw new CliError("InvalidArgument", `no variable "${variable}" in the table (it has ${[...table.layout.arrays.keys()].join(", ")})`, { variable });
  }
  const array = (await readRows(table, request.dataset, [variable])).get(variable);
  if (array === undefined) {
    throw new CliError("InvalidArgument", `dataset ${describe(request.dataset)} has no variable "${variable}"`, { variable });
  }
  const slice = slice2d(array, variable, request.isel);
  decodeCf(slice.values, slice.nullMask, array);
  const window = NdArray.from(slice.values, {
    dims: [
      [slice.rows.name, slice.rows.size],
      [slice.cols.name, slice.cols.size],
    ],
    attrs: array.attrs,
  });
  return new NdRecordBatch({ [variable]: window });
}

/**
 * The 1-D coordinate variables `names` of a dataset (each a variable whose
 * only dim has its name), whole.
 */
export async function readCoordinates(table: NdTable, dataset: string | null, names: readonly string[]): Promise<NdRecordBatch> {
  const known = names.filter((name) => table.layout.arrays.has(name));
  if (known.length === 0) return new NdRecordBatch({});
  const rows = await readRows(table, dataset, known);
  return new NdRecordBatch(rows.arrays().filter(([name]) => known.includes(name)));
}

async function readRows(table: NdTable, dataset: string | null, names: readonly string[]): Promise<NdRecordBatch> {
  const where = datasetFilter(table, dataset)?.toSql();
  try {
    return (await readDataset(table, where, names)).dataset;
  } catch (cause) {
    if (cause instanceof CliError && /^no row matches/.test(cause.message)) {
      throw new CliError("InvalidArgument", `no dataset ${describe(dataset)} in the table`, { cause });
    }
    throw cause;
  }
}

function describe(dataset: string | null): string {
  return dataset === null ? "without an id" : JSON.stringify(dataset);
}
