/**
 * `layouts`: what `info` shows of a dataset's layouts (README "Layouts").
 */
import { GLOBAL_ATTRS_COLUMN } from "@lance-nd/nd-arrow";
import { col } from "../read/expr.js";
import { planRead } from "../read/read-plan.js";
import type { NdTable } from "../table.js";
import { checkTable } from "../table-check.js";
import { planDataset, type DatasetPlan } from "../dataset/plan.js";
import { valueBytes } from "../dataset/row-bytes.js";
import { chunkShapeText } from "./chunk-shape.js";
import { datasetLayouts } from "../dataset/current-layouts.js";
import { SOURCE_LAYOUT } from "../dataset/layout-attrs.js";

/** One layout of a dataset, as {@link layouts} lists it. */
export interface LayoutInfo {
  /** `"source"` for the dataset's own rows, else the name `rechunk` gave. */
  readonly name: string;
  /** The id its rows carry. */
  readonly id: string;
  /** Its chunk shape (the source's: the shape of its first row). */
  readonly chunk: string;
  /** Its rows in this version. */
  readonly rows: number;
  /** The bytes of values its rows hold (uncompressed), or null for a stale layout. */
  readonly valueBytes: number | null;
  /** Null when reads take it; else why not (e.g. "the source changed since its rechunk"). */
  readonly stale: string | null;
}

/**
 * The layouts of dataset `id` in the table's current version: its own rows
 * first, then each layout in the order it was created, current or stale.
 *
 * @throws LanceNdError `InvalidInput` when no row has the id (and the errors of `dataset`).
 * @example
 * for (const layout of await layouts(table, "era5.nc")) console.log(layout.name, layout.chunk, layout.stale ?? "current");
 */
export async function layouts(table: NdTable, id: string): Promise<LayoutInfo[]> {
  checkTable(table, "layouts");
  const view = table.readOnly ? table : await table.checkout(await table.version());
  const { filter } = planRead(view.uri, view.layout, {
    projection: [],
    conditions: [{ kind: "nd", sql: col(`${GLOBAL_ATTRS_COLUMN}.id`).eq(id).toSql() }],
  });
  const source = await planDataset(view, filter);
  const own: LayoutInfo = {
    name: SOURCE_LAYOUT,
    id,
    chunk: chunkShapeText(source.grid, source.rows[0]!.size),
    rows: source.rows.length,
    valueBytes: planBytes(source),
    stale: null,
  };
  const others = (await datasetLayouts(view, id, source)).map((state) => ({
    name: state.name,
    id: state.id,
    chunk: state.chunk,
    rows: state.rows,
    valueBytes: state.plan === null ? null : planBytes(state.plan),
    stale: state.stale,
  }));
  return [own, ...others];
}

/** The bytes of values the rows of `plan` hold. */
function planBytes(plan: DatasetPlan): number {
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  let bytes = 0;
  for (const row of plan.rows) {
    for (const variable of plan.variables) {
      if (!row.variables.has(variable.name)) continue;
      const cells = variable.dims.reduce((n, dim) => n * row.size[position.get(dim)!]!, 1);
      bytes += cells * valueBytes(variable.type);
    }
  }
  return bytes;
}
