/**
 * A dataset as the viewer holds it while the server runs: the pinned
 * `dataset` view of lance-nd (README "Datasets") that every window and
 * coordinate read goes through, and the summary the page lists. Opening one
 * reads no values but one row: the plan (dims, variables, rows), the rows'
 * stats columns for the ranges, and the row at the grid's origin for the
 * variables' attributes.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { selectName } from "@lance-nd/format";
import { statsColumnName } from "@lance-nd/stats";
import { checkout, dataset } from "lance-nd";
import type { Dataset, NdTable } from "lance-nd";
import { attrsJson } from "../output/row-json.js";
import { datasetFilter } from "./catalog.js";
import type { DatasetEntry, DatasetSummary } from "./catalog.js";

/** An open dataset: its pinned view, its summary and the coordinates read so far. */
export interface DatasetView {
  /** The `dataset` view, pinned to the table version the page shows. */
  ds: Dataset;
  summary: DatasetSummary;
  /** The coordinate variable `name` (1-D, named as its dim), read once. */
  coord(name: string): Promise<NdArray>;
}

/**
 * Opens dataset `entry` of `table`: `dataset(table, { where: its id })`,
 * then its summary. Throws what planning throws (rows that do not tile one
 * grid: lance-nd `InvalidInput`).
 */
export async function openDatasetView(table: NdTable, entry: DatasetEntry): Promise<DatasetView> {
  const where = datasetFilter(table, entry.id);
  const ds = await dataset(table, where === undefined ? {} : { where });
  const origin = await ds.isel(Object.fromEntries(ds.dims.map((d) => [d.name, [0, 1] as [number, number]]))).read();
  const ranges = await statsRanges(table, ds, where?.toSql());
  const summary: DatasetSummary = {
    ...entry,
    dims: ds.dims,
    variables: ds.variables.map((v) => ({
      name: v.name,
      type: String(v.type),
      dims: [...v.dims],
      attrs: attrsJson(origin.get(v.name)?.attrs ?? new Map()),
      min: ranges.get(v.name)?.[0] ?? null,
      max: ranges.get(v.name)?.[1] ?? null,
    })),
  };
  const coords = new Map<string, Promise<NdArray>>();
  const coord = (name: string): Promise<NdArray> => {
    let array = coords.get(name);
    if (array === undefined) {
      array = ds.coord(name);
      coords.set(name, array);
      array.catch(() => coords.delete(name));
    }
    return array;
  };
  return { ds, summary, coord };
}

/**
 * `[min, max]` over the dataset's rows of each variable with a stats
 * column (lance-nd README, "Stats"), in the view's version; no values are
 * read. lance-nd's dataset plan reads these columns but does not expose
 * them, so they are read here through the table's Lance handle.
 */
async function statsRanges(table: NdTable, ds: Dataset, where: string | undefined): Promise<Map<string, [number, number]>> {
  const names = ds.variables.map((v) => v.name).filter((name) => table.layout.statsColumns.has(name));
  const ranges = new Map<string, [number, number]>();
  if (names.length === 0) return ranges;
  const pinned = table.readOnly ? table : await checkout(table, ds.version);
  let query = pinned.lance.sdk.query().select(names.map((name) => selectName(statsColumnName(name))));
  if (where !== undefined) query = query.where(where);
  for (const batch of await query.toArray()) {
    names.forEach((name) => {
      const stats = batch[statsColumnName(name)] as { min: unknown; max: unknown } | null;
      const min = toNumber(stats?.min);
      const max = toNumber(stats?.max);
      if (min === null || max === null) return;
      const known = ranges.get(name);
      ranges.set(name, known === undefined ? [min, max] : [Math.min(known[0], min), Math.max(known[1], max)]);
    });
  }
  return ranges;
}

function toNumber(value: unknown): number | null {
  if (typeof value === "number" && !Number.isNaN(value)) return value;
  if (typeof value === "bigint") return Number(value);
  return null;
}
