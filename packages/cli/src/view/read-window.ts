/**
 * The viewer's reads of a window: the 2-D slice a heatmap shows. The one
 * module that knows how a window is read from the table.
 *
 * It reads with `scan`: the dataset's rows by `id`; when they are chunks,
 * only the rows that hold the selected indices (a filter on their
 * `chunk_offset`, whose starts the catalog knows), read whole because a
 * `chunk_offset` counts along the whole row's grid, then assembled with
 * nd-arrow; unchunked rows are read with the variable alone. The slice is
 * cut by the plot command's `slice2d`. A slider step thus reads the chunks
 * of one slice, not the dataset.
 */
import { CHUNK_OFFSET, NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { scan } from "lance-nd";
import type { NdTable } from "lance-nd";
import { oneDataset, readDataset } from "../commands/one-dataset.js";
import { CliError } from "../errors.js";
import { cfDecode } from "@lance-nd/cf";
import { slice2d } from "../plot/slice.js";
import { datasetFilter } from "./catalog.js";
import type { DatasetSummary } from "./catalog.js";

/** Which window to read. */
export interface WindowRequest {
  /** The dataset's `id` (null: the rows without one). */
  dataset: string | null;
  variable: string;
  /** An index along every dim but the two the window keeps (dims of size 1 may be left out). */
  isel: ReadonlyMap<string, number>;
}

/**
 * The 2-D window of `request.variable` in `dataset` (its summary: dims and
 * chunk starts): one NdArray of the same name, Float64,
 * dims (rows, cols) in the variable's order, values CF-decoded as `plot`
 * draws them (fill and missing values, nulls and NaN are NaN; scale and
 * offset applied), and the variable's attributes.
 *
 * Throws `CliError` `InvalidArgument` for an unknown variable or dataset,
 * a dim the variable lacks, an index out of range, or a selection that does
 * not leave two dims.
 */
export async function readWindow(table: NdTable, dataset: DatasetSummary, request: WindowRequest): Promise<NdRecordBatch> {
  const { variable } = request;
  if (!table.layout.arrays.has(variable)) {
    throw new CliError("InvalidArgument", `no variable "${variable}" in the table (it has ${[...table.layout.arrays.keys()].join(", ")})`, { variable });
  }
  const chunks = chunkSelection(dataset, request.isel);
  const rows = chunks === undefined ? await readRows(table, request.dataset, [variable]) : await readChunks(table, request.dataset, chunks.filter, chunks.starts);
  const array = rows.get(variable);
  if (array === undefined) {
    throw new CliError("InvalidArgument", `dataset ${describe(request.dataset)} has no variable "${variable}"`, { variable });
  }
  const isel = chunks === undefined ? request.isel : new Map([...request.isel].map(([dim, index]) => [dim, index - (chunks.starts.get(dim) ?? 0)]));
  const slice = slice2d(cfDecode(array, { mask: true, scale: true, times: false, name: variable }), variable, isel);
  const window = NdArray.from(slice.values, {
    dims: [
      [slice.rows.name, slice.rows.size],
      [slice.cols.name, slice.cols.size],
    ],
    attrs: array.attrs,
  });
  return new NdRecordBatch({ [variable]: window });
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

/**
 * The chunks that hold `isel`: for each selected dim with chunk starts, the
 * start of the chunk holding the index, and the SQL filter on
 * `chunk_offset` (1-based list index: the dim's place in the grid) that
 * selects those rows. Undefined when the rows are not chunks or an index is
 * out of range (the whole dataset is read, and slice2d names the problem).
 */
function chunkSelection(dataset: DatasetSummary, isel: ReadonlyMap<string, number>): { filter: string; starts: Map<string, number> } | undefined {
  const starts = new Map<string, number>();
  const conditions: string[] = [];
  for (const [dim, index] of isel) {
    const axis = dataset.dims.findIndex((d) => d.name === dim);
    const dimStarts = dataset.chunkStarts[axis];
    if (axis < 0 || dimStarts === undefined) continue;
    if (index >= dataset.dims[axis]!.size) return undefined;
    const start = dimStarts.findLast((s) => s <= index)!;
    starts.set(dim, start);
    conditions.push(`__global_attrs__.${CHUNK_OFFSET}[${axis + 1}] = ${start}`);
  }
  return conditions.length === 0 ? undefined : { filter: conditions.join(" AND "), starts };
}

/**
 * The dataset's rows that `filter` selects, whole, assembled as if the
 * chunk starting at `starts` were the first along those dims.
 */
async function readChunks(table: NdTable, dataset: string | null, filter: string, starts: ReadonlyMap<string, number>): Promise<NdRecordBatch> {
  const byId = datasetFilter(table, dataset)?.toSql();
  const where = byId === undefined ? filter : `(${byId}) AND ${filter}`;
  const rows = (await scan(table).filter(where).toArray()).map((row) => {
    const offset = row.globalAttr(CHUNK_OFFSET) as ArrayLike<number>;
    const shifted = Uint32Array.from(row.grid(), (dim, axis) => Number(offset[axis]) - (starts.get(dim.name) ?? 0));
    return row.withGlobalAttrs(new Map([...row.globalAttrs, [CHUNK_OFFSET, attr.uint32(shifted)]]));
  });
  return oneDataset(rows, where);
}

function describe(dataset: string | null): string {
  return dataset === null ? "without an id" : JSON.stringify(dataset);
}
