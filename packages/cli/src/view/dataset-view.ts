/**
 * A dataset as the viewer holds it while the server runs: the pinned
 * `dataset` view of lance-nd (README "Datasets") that every window and
 * coordinate read goes through, and the summary the page lists. Opening one
 * reads no values but one row: the plan (dims, variables, rows) with the
 * rows' stats columns for the ranges (`ds.stats()`), and the row at the
 * grid's origin for the variables' attributes.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { dataset } from "lance-nd";
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
  const ranges = ds.stats();
  const summary: DatasetSummary = {
    ...entry,
    dims: ds.dims,
    variables: ds.variables.map((v) => ({
      name: v.name,
      type: String(v.type),
      dims: [...v.dims],
      attrs: attrsJson(origin.get(v.name)?.attrs ?? new Map()),
      min: ranges.get(v.name)?.min ?? null,
      max: ranges.get(v.name)?.max ?? null,
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
