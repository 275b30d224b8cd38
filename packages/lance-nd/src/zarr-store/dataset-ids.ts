/**
 * The datasets a table holds, as the Zarr store serves them (README
 * "Serving as Zarr"): rows grouped by their `id` global attribute, rows
 * without one as the dataset `_`. One scan of the global attributes, no
 * values.
 */
import type { Struct } from "apache-arrow";
import { col } from "../read/expr.js";
import { scan } from "../read/scan.js";
import type { NdTable } from "../table.js";
import type { DatasetOptions } from "../dataset/dataset.js";

/** The dataset name of the rows without an `id`. */
const NO_ID = "_";

/** The ids of the datasets of `view` in table order, `_` for rows without an `id`. */
export async function datasetIds(view: NdTable): Promise<string[]> {
  if (!hasIdAttr(view)) return [NO_ID];
  const ids = new Set<string>();
  for await (const row of scan(view).project([])) {
    const id = row.globalAttr("id");
    ids.add(typeof id === "string" ? id : NO_ID);
  }
  return [...ids];
}

/** The `dataset` options that select the rows of dataset `id`. */
export function datasetRows(view: NdTable, id: string): DatasetOptions {
  if (!hasIdAttr(view)) return {};
  return { where: id === NO_ID ? col("__global_attrs__.id").isNull() : col("__global_attrs__.id").eq(id) };
}

/** True when the table's global attributes have an `id` field. */
function hasIdAttr(view: NdTable): boolean {
  const fields = (view.layout.globalAttrs?.type as Struct | undefined)?.children ?? [];
  return fields.some((field) => field.name === "id");
}
