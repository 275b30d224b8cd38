/**
 * What the viewer lists: the table (format, version, rows, size, variables)
 * and its datasets, the rows grouped by their `id` global attribute and
 * placed by `chunk_offset` (packages/cli/README.md, `view`).
 */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { computeStats } from "@lance-nd/stats";
import { col, scan, variables, versions } from "lance-nd";
import type { Expr, NdTable } from "lance-nd";
import { diskBytes } from "../output/disk-size.js";
import { attrsJson } from "../output/row-json.js";

/** A variable of a dataset: its value type, dims, attributes and range. */
export interface DatasetVariable {
  name: string;
  type: string;
  dims: string[];
  attrs: Record<string, unknown>;
  /** The smallest and largest value over the dataset's rows (nulls and NaN left out; null when none or the type has no order). */
  min: unknown;
  max: unknown;
}

/** The rows of the table that share one `id` (or have none), as one dataset. */
export interface DatasetSummary {
  /** The `id` global attribute; null for the rows without one. */
  id: string | null;
  /** Table rows (chunks) of the dataset. */
  rows: number;
  /** The dims of the assembled dataset: each dim's size is the largest `chunk_offset + size` of its rows. */
  dims: { name: string; size: number }[];
  variables: DatasetVariable[];
  /** The global attributes of its first row, without `chunk_offset`. */
  globalAttrs: Record<string, unknown>;
  /**
   * Where its rows start along each dim (`chunk_offset`), sorted, for the
   * rows that carry one: what a window read needs to pick the rows that
   * hold an index. Empty when no row has a `chunk_offset`.
   */
  chunkStarts: Record<string, number[]>;
}

/** The table as the page shows it. */
export interface TableSummary {
  uri: string;
  formatVersion: number;
  version: number;
  /** Every version kept: number and commit time (ISO 8601). */
  versions: { version: number; timestamp: string }[];
  rows: number;
  /** Bytes on disk; null when the table is not local. */
  bytes: number | null;
  variables: { name: string; type: string; stats: boolean; attrs: string[] }[];
  globalAttrs: string[];
  datasets: DatasetSummary[];
}

/**
 * The summary of `table` (at its version). Reads every row once, one at a
 * time (the range of each variable comes from its values, as the stats
 * columns would): memory holds the summary, not the rows.
 */
export async function readCatalog(table: NdTable, uri: string): Promise<TableSummary> {
  const layout = table.layout;
  const version = await table.version();
  const datasets = new Map<string | null, DatasetSummary>();
  let rows = 0;
  for await (const row of scan(table)) {
    rows++;
    addRow(datasets, row);
  }
  const bytes = await diskBytes(uri);
  return {
    uri,
    formatVersion: layout.formatVersion,
    version,
    versions: (await versions(table)).map((v) => ({ version: v.version, timestamp: v.timestamp.toISOString() })),
    rows,
    bytes: bytes ?? null,
    variables: (await variables(table)).map((v) => ({ name: v.name, type: String(v.valueType), stats: v.hasStats, attrs: v.attrs.map((a) => a.key) })),
    globalAttrs: globalAttrNames(table),
    datasets: [...datasets.values()],
  };
}

function addRow(datasets: Map<string | null, DatasetSummary>, row: NdRecordBatch): void {
  const id = datasetId(row);
  const grid = row.grid();
  const offset = row.globalAttr(CHUNK_OFFSET);
  const offsets = Array.isArray(offset) || ArrayBuffer.isView(offset) ? Array.from(offset as ArrayLike<number | bigint>, Number) : [];
  let dataset = datasets.get(id);
  if (dataset === undefined) {
    const globalAttrs = attrsJson(row.globalAttrs);
    delete globalAttrs[CHUNK_OFFSET];
    dataset = { id, rows: 0, dims: [], variables: [], globalAttrs, chunkStarts: Object.create(null) as Record<string, number[]> };
    datasets.set(id, dataset);
  }
  dataset.rows++;
  grid.forEach((dim, axis) => {
    if (offsets.length === grid.length) addStart(dataset.chunkStarts, dim.name, offsets[axis]!);
    const end = (offsets[axis] ?? 0) + dim.size;
    const known = dataset.dims.find((d) => d.name === dim.name);
    if (known === undefined) dataset.dims.push({ name: dim.name, size: end });
    else known.size = Math.max(known.size, end);
  });
  for (const [name, array] of row.arrays()) {
    const stats = computeStats(array.values);
    let variable = dataset.variables.find((v) => v.name === name);
    if (variable === undefined) {
      variable = { name, type: String(array.type), dims: array.dimNames, attrs: attrsJson(array.attrs), min: null, max: null };
      dataset.variables.push(variable);
    }
    if (stats?.min !== undefined && stats.min !== null && (variable.min === null || (stats.min as number) < (variable.min as number))) variable.min = stats.min;
    if (stats?.max !== undefined && stats.max !== null && (variable.max === null || (stats.max as number) > (variable.max as number))) variable.max = stats.max;
  }
}

function addStart(chunkStarts: Record<string, number[]>, dim: string, start: number): void {
  const starts = (chunkStarts[dim] ??= []);
  if (starts.includes(start)) return;
  starts.push(start);
  starts.sort((a, b) => a - b);
}

/** The `id` of a row as text; null when it has none. */
function datasetId(row: NdRecordBatch): string | null {
  const id = row.globalAttr("id");
  return id === undefined || id === null ? null : String(id);
}

function globalAttrNames(table: NdTable): string[] {
  const attrs = table.layout.globalAttrs;
  return attrs === null ? [] : attrs.type.children.map((f: { name: string }) => f.name);
}

/**
 * The filter selecting the rows of the dataset `id`: its `id` equals `id`,
 * or, for null, it has none (all rows when the table has no `id` attribute).
 */
export function datasetFilter(table: NdTable, id: string | null): Expr | undefined {
  const hasId = globalAttrNames(table).includes("id");
  if (!hasId) return undefined;
  const column = col(["__global_attrs__", "id"]);
  return id === null ? column.isNull() : column.eq(id);
}

/**
 * The ids of the datasets with at least one row that `where` (Lance SQL,
 * as `scan --where`) selects: null stands for the rows without an id. Reads
 * the global attributes and the smallest variable only.
 */
export async function matchingDatasets(table: NdTable, where: string, smallest: string | undefined): Promise<(string | null)[]> {
  let query = scan(table).filter(where);
  if (smallest !== undefined) query = query.project([smallest]);
  const ids = new Set<string | null>();
  for await (const row of query) ids.add(datasetId(row));
  return [...ids];
}
