/**
 * What the viewer lists: the table (format, version, rows, size, variables)
 * and its datasets, the rows grouped by their `id` global attribute and
 * placed by `chunk_offset` (packages/cli/README.md, `view`). The list reads
 * the global attributes alone; a dataset's dims and variables are planned
 * when the page asks for them (`dataset-view.ts`).
 */
import { isStorageAttr, userAttrs } from "../output/user-attrs.js";
import { DataType } from "apache-arrow";
import type { Field } from "apache-arrow";
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { SOURCE_FILE_ATTR, col, scan, variables } from "lance-nd";
import type { Expr, NdTable } from "lance-nd";
import { diskBytes } from "../output/disk-size.js";
import { attrsJson } from "../output/row-json.js";

/** A dataset as the list shows it: the rows of the table that share one `id` (or have none). */
export interface DatasetEntry {
  /** The `id` global attribute; null for the rows without one. */
  id: string | null;
  /** Table rows (chunks) of the dataset. */
  rows: number;
  /** The global attributes of its first row, without `chunk_offset`. */
  globalAttrs: Record<string, unknown>;
}

/** A variable of a dataset: its value type, dims, attributes and range. */
export interface DatasetVariable {
  name: string;
  type: string;
  dims: string[];
  attrs: Record<string, unknown>;
  /** The smallest and largest value over the dataset's rows, from the table's stats column (null without one, or when every value is null or NaN). */
  min: unknown;
  max: unknown;
}

/** A dataset with what planning it tells: its dims (in grid order) and variables. */
export interface DatasetSummary extends DatasetEntry {
  /** The dims of the assembled dataset: each dim's size is the largest `chunk_offset + size` of its rows. */
  dims: { name: string; size: number }[];
  variables: DatasetVariable[];
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
  datasets: DatasetEntry[];
}

/** The summary of `table` (at its version): reads the global attributes of every row, no variable. */
export async function readCatalog(table: NdTable, uri: string): Promise<TableSummary> {
  const layout = table.layout;
  const datasets = new Map<string | null, DatasetEntry>();
  let rows = 0;
  for await (const row of scan(table).project([])) {
    rows++;
    addEntry(datasets, row);
  }
  const bytes = await diskBytes(uri);
  return {
    uri,
    formatVersion: layout.formatVersion,
    version: await table.version(),
    versions: (await table.versions()).map((v) => ({ version: v.version, timestamp: v.timestamp.toISOString() })),
    rows,
    bytes: bytes ?? null,
    variables: (await variables(table)).map((v) => ({
      name: v.name,
      type: String(v.valueType),
      stats: v.hasStats,
      attrs: v.attrs.map((a) => a.key).filter((key) => !isStorageAttr(key)),
    })),
    globalAttrs: globalAttrNames(table),
    datasets: [...datasets.values()],
  };
}

function addEntry(datasets: Map<string | null, DatasetEntry>, row: NdRecordBatch): void {
  const id = datasetId(row);
  let entry = datasets.get(id);
  if (entry === undefined) {
    const globalAttrs = attrsJson(userAttrs(row.globalAttrs));
    delete globalAttrs[CHUNK_OFFSET];
    delete globalAttrs[SOURCE_FILE_ATTR]; // one file's name; a dataset may span files (CLI README, "Many files, one dataset")
    entry = { id, rows: 0, globalAttrs };
    datasets.set(id, entry);
  }
  entry.rows++;
}

/** The `id` of a row as text; null when it has none. */
function datasetId(row: NdRecordBatch): string | null {
  const id = row.globalAttr("id");
  return id === undefined || id === null ? null : String(id);
}

function globalAttrNames(table: NdTable): string[] {
  const attrs = table.layout.globalAttrs;
  return attrs === null
    ? []
    : attrs.type.children.map((f: { name: string }) => f.name).filter((name: string) => !isStorageAttr(name));
}

/** The type of the table's `id` global attribute, undefined when it has none. */
function idType(table: NdTable): DataType | undefined {
  const attrs = table.layout.globalAttrs;
  return attrs?.type.children.find((f: Field) => f.name === "id")?.type;
}

/**
 * The filter selecting the rows of the dataset `id`: its `id` equals `id`,
 * compared in the attribute's type (an integer `id` as an integer), or,
 * for null, it has none (all rows when the table has no `id` attribute).
 */
export function datasetFilter(table: NdTable, id: string | null): Expr | undefined {
  const type = idType(table);
  if (type === undefined) return undefined;
  const column = col(["__global_attrs__", "id"]);
  if (id === null) return column.isNull();
  if (DataType.isInt(type)) return column.eq(type.bitWidth === 64 ? BigInt(id) : Number(id));
  return column.eq(DataType.isFloat(type) ? Number(id) : id);
}

/**
 * The ids of the datasets with at least one row that `where` (Lance SQL,
 * as `scan --where`) selects: null stands for the rows without an id. Reads
 * the global attributes only.
 */
export async function matchingDatasets(table: NdTable, where: string): Promise<(string | null)[]> {
  const ids = new Set<string | null>();
  for await (const row of scan(table).project([]).filter(where)) ids.add(datasetId(row));
  return [...ids];
}
