/**
 * The dataset view: the rows that make up one dataset (netCDF file, xarray
 * Dataset) in a pinned table version, read by region with `isel` / `sel`,
 * touching only the rows a selection overlaps (README "Datasets").
 */
import { parseOptions } from "@lance-nd/casting/coded-error";
import type { Attrs, Dim, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { z } from "zod";
import { LanceNdError } from "../errors.js";
import { lanceNdOptionsError } from "../option-errors.js";
import { Expr } from "../read/expr.js";
import { planRead } from "../read/read-plan.js";
import type { NdTable } from "../table.js";
import { checkTable } from "../table-check.js";
import { planDataset, type DatasetPlan, type DatasetVariable } from "./plan.js";
import { readBlocks, readWindow, windowRowCount, type DatasetBlock } from "./read.js";
import type { CoordinateCache } from "./coordinate.js";
import { applySel } from "./sel.js";
import { firstCells } from "./first-cells.js";
import { chooseLayout, type ReadLayout } from "./layout-choice.js";
import { forcedLayout, notLayoutRows, readLayouts } from "./current-layouts.js";
import { LAYOUT_ATTRS, SOURCE_LAYOUT } from "./layout-attrs.js";
import {
  applyIsel,
  keptDims,
  iselSpec,
  wholeGrid,
  type DimRange,
  type IselIndices,
  type IselSpec,
  type SelOptions,
  type SelSpec,
} from "./selection.js";

/** Options of {@link dataset}. */
export interface DatasetOptions {
  /**
   * The rows of the dataset: an expression from `col` / `stat`, or nd-level
   * SQL as `scan(...).filter` takes it. Default: all rows of the table.
   */
  where?: Expr | string;
  /**
   * Read from this layout only (README "Layouts"): a name `rechunk` gave,
   * or `"source"` for the dataset's own rows. Default: each read takes the
   * current layout whose rows hold the fewest bytes for its selection.
   */
  layout?: string;
}

const datasetOptionsSchema = z.strictObject({
  where: z
    .union([z.instanceof(Expr), z.string().trim().min(1)], {
      error: "where takes an Expr from col / stat or a non-empty nd-level SQL string",
    })
    .optional(),
  layout: z.string().trim().min(1, { error: "layout names a layout of the dataset" }).optional(),
});

/** One selection step, replayed on the plan when a view reads. */
type Step = { kind: "isel"; spec: IselIndices } | { kind: "sel"; spec: SelSpec; options: SelOptions };

/**
 * A dataset in one table version, or a selection of it (from
 * {@link Dataset.isel} / {@link Dataset.sel}). Get one from {@link dataset}.
 */
export class Dataset {
  readonly #table: NdTable;
  readonly #view: NdTable;
  readonly #options: DatasetOptions;
  readonly #plan: DatasetPlan;
  readonly #layouts: readonly ReadLayout[];
  readonly #steps: readonly Step[];
  readonly #coordinates: CoordinateCache;
  #ranges: Promise<DimRange[]> | undefined;

  /** The table version the view reads. */
  readonly version: number;

  /** @internal Use {@link dataset}. */
  constructor(
    table: NdTable,
    view: NdTable,
    version: number,
    options: DatasetOptions,
    plan: DatasetPlan,
    layouts: readonly ReadLayout[],
    steps: readonly Step[],
    coordinates: CoordinateCache,
  ) {
    this.#table = table;
    this.#view = view;
    this.version = version;
    this.#options = options;
    this.#plan = plan;
    this.#layouts = layouts;
    this.#steps = steps;
    this.#coordinates = coordinates;
  }

  /** The whole dataset's grid (also on a selection: its shape is the shape of what `read` returns). */
  get dims(): Dim[] {
    return this.#plan.grid.map((d) => ({ ...d }));
  }

  /**
   * The dims this selection keeps, with their selected sizes (a dim a
   * single value picked is left out): the shape of what `read` returns.
   * Resolves the selection (reads the coordinates a `sel` needs).
   */
  async selectedDims(): Promise<Dim[]> {
    return keptDims(this.#plan.grid, await this.#resolve());
  }

  /** The variables: name, value type, dim names. */
  get variables(): DatasetVariable[] {
    return this.#plan.variables.map((v) => ({ ...v, dims: [...v.dims] }));
  }

  /** The number of table rows (chunks) that make up the dataset. */
  get chunkCount(): number {
    return this.#plan.rows.length;
  }

  /**
   * The `[min, max]` of each of `names` (default: every variable) over the
   * whole dataset's rows (a selection does not narrow it, as with `dims`),
   * from the rows' stats columns (README "Stats") that planning read: no
   * value is read. A variable is null when the table keeps no stats for it
   * (not numeric, `stats: false`, or no row with stats).
   *
   * @throws LanceNdError `VariableNotFound` for an unknown variable.
   * @example
   * ds.stats(["sst"]).get("sst"); // { min: -1.8, max: 31.2 }
   */
  stats(names?: readonly string[]): Map<string, { min: number; max: number } | null> {
    const ranges = new Map<string, { min: number; max: number } | null>();
    for (const name of this.#names(names, "stats")) {
      let range: { min: number; max: number } | null = null;
      for (const row of this.#plan.rows) {
        const stats = row.stats.get(name);
        if (stats === undefined || Number.isNaN(stats[0]) || Number.isNaN(stats[1])) continue;
        range =
          range === null
            ? { min: stats[0], max: stats[1] }
            : { min: Math.min(range.min, stats[0]), max: Math.max(range.max, stats[1]) };
      }
      ranges.set(name, range);
    }
    return ranges;
  }

  /**
   * A selection by index: per dim an integer (picks it and drops the dim, as
   * xarray does) or `[start, stop)` (like a Python slice), relative to this
   * view; numbers or bigints. Selections compose.
   *
   * @throws LanceNdError `InvalidInput` for input that is not integers or
   * integer pairs (a bigint past `Number.MAX_SAFE_INTEGER` too); when the
   * view reads, `DimNotFound` for an unknown dim, `InvalidInput` naming the
   * dim and its size for an index out of range.
   * @example
   * await ds.isel({ time: [3, 6], lat: 10 }).read(["sst"]); // sst(time 3, lon)
   */
  isel(spec: IselSpec): Dataset {
    return this.#with({ kind: "isel", spec: iselSpec(this.#view.uri, spec) });
  }

  /**
   * A selection by coordinate value, as xarray's `sel`: per dim a value or
   * a slice `[start, stop]`. A value picks the cell equal to it and drops
   * the dim (cells repeating the value are all kept, with the dim); with
   * `method: "nearest"` the nearest cell (a tie to the larger value, within
   * `tolerance` when given). A slice keeps `start..stop` in the
   * coordinate's own order: on a descending coordinate start is the larger,
   * and a start past the stop selects nothing. On a time coordinate a
   * value may be an ISO date of its calendar: a date coarser than the
   * coordinate's values (`"2001-03"` of daily data) selects its whole
   * period and keeps the dim, as pandas' partial string indexing; as a
   * slice's stop it takes its whole period. Values are numbers, bigints,
   * Dates or text (README "Datasets").
   *
   * @throws LanceNdError `InvalidInput` for malformed input; when the view
   * reads, for a dim without a coordinate variable, a value not found or
   * none within `tolerance`, a slice on a coordinate that is not monotonic,
   * matches that are not one run of cells, or a date on a coordinate that
   * is not a time or that its calendar lacks.
   * @example
   * await ds.sel({ lat: [-10, 10], time: ["2000-03-01", "2000-03-31"] }).read();
   * await ds.sel({ time: "2000-03" }).read(); // every step of March 2000
   */
  sel(spec: SelSpec, options: SelOptions = {}): Dataset {
    checkSelSpec(this.#view.uri, spec, options);
    return this.#with({ kind: "sel", spec: { ...spec }, options: { ...options } });
  }

  /**
   * The selection of `names` (default: every variable) as one batch, with
   * the dataset's global attributes. Takes only the rows that overlap the
   * selection, in takes of about 32 MiB (a data variable and its
   * coordinates in one take), each row cut to the selection: holds the
   * result plus one take, twice the result when it needs several (README
   * "Datasets").
   *
   * @throws LanceNdError `VariableNotFound` for an unknown variable,
   * `DimNotFound` or `InvalidInput` for a selection that does not fit (see
   * `isel`, `sel`), `InvalidInput` naming the cells when no row holds some
   * cells of the selection (rows removed), and naming the variable and the
   * rows when rows without one of the variables (null in them) hold cells
   * of the selection (README "Datasets": rows without a variable).
   */
  async read(names?: readonly string[]): Promise<NdRecordBatch> {
    const ranges = await this.#resolve();
    const wanted = this.#names(names);
    const layout = chooseLayout(this.#layouts, ranges, wanted);
    return this.#asSource(layout, await readWindow(this.#view, layout.plan, ranges, wanted));
  }

  /**
   * The current layouts a read may take (README "Layouts"): `"source"` (the
   * dataset's own rows) and the names of its layouts that mirror this
   * version, in the order they were created; only the forced one with the
   * `layout` option.
   */
  get layouts(): string[] {
    return this.#layouts.map((layout) => layout.name);
  }

  /**
   * The layout `read(names)` takes: the current one whose rows hold the
   * fewest bytes of `names` for this selection (the first created on a
   * tie). Reads no value.
   */
  async readLayout(names?: readonly string[]): Promise<string> {
    return chooseLayout(this.#layouts, await this.#resolve(), this.#names(names)).name;
  }

  /**
   * @internal The number of table rows (chunks) `read(names)` takes: the
   * CLI reports it ("from N rows", `rowsRead`). Reads no value.
   */
  async rowsRead(names?: readonly string[]): Promise<number> {
    const ranges = await this.#resolve();
    const wanted = this.#names(names);
    return windowRowCount(chooseLayout(this.#layouts, ranges, wanted).plan, ranges, wanted);
  }

  /**
   * The selection of `names` block by block: one block per row (chunk) that
   * overlaps the selection and holds every one of `names`, cut to it, with
   * `offset` = where the block starts in the selection (along the dims the
   * selection keeps, in `dims` order). Variables that lack some dims come
   * from the rows whose pieces tile the selection along the dims they have.
   * Holds one row and its block at a time.
   */
  async *blocks(names?: readonly string[]): AsyncGenerator<DatasetBlock> {
    const ranges = await this.#resolve();
    const wanted = this.#names(names);
    const layout = chooseLayout(this.#layouts, ranges, wanted);
    for await (const block of readBlocks(this.#view, layout.plan, ranges, wanted)) {
      yield { ...block, batch: this.#asSource(layout, block.batch) };
    }
  }

  /** The coordinate variable `name` within the selection, assembled. */
  async coord(name: string): Promise<NdArray> {
    return (await this.read([name])).get(name)!;
  }

  /** A view of the same rows and selection in the latest version of the table. */
  async refresh(): Promise<Dataset> {
    const fresh = await dataset(this.#table, this.#options);
    return this.#steps.reduce<Dataset>(
      (view, step) => (step.kind === "isel" ? view.isel(step.spec) : view.sel(step.spec, step.options)),
      fresh,
    );
  }

  /**
   * @internal What the dataset's `NdSource` (dataset-source.ts) knows before
   * it reads: the table's uri, the dataset's global attributes, and one cell
   * of each variable of the whole dataset (first-cells.ts).
   */
  sourceFacts(): { uri: string; globalAttrs: Attrs; cells: AsyncGenerator<NdRecordBatch> } {
    const whole = this.#withSteps([]);
    return { uri: this.#view.uri, globalAttrs: this.#plan.globalAttrs, cells: firstCells(this.#plan, whole) };
  }

  #with(step: Step): Dataset {
    return this.#withSteps([...this.#steps, step]);
  }

  /** This dataset with `steps` in place of its own. */
  #withSteps(steps: Step[]): Dataset {
    return new Dataset(
      this.#table,
      this.#view,
      this.version,
      this.#options,
      this.#plan,
      this.#layouts,
      steps,
      this.#coordinates,
    );
  }

  /** A batch read from `layout` with the source's global attributes: its id, without the layout's own. */
  #asSource(layout: ReadLayout, batch: NdRecordBatch): NdRecordBatch {
    if (layout.name === SOURCE_LAYOUT) return batch;
    const attrs = new Map(batch.globalAttrs);
    for (const key of LAYOUT_ATTRS) attrs.delete(key);
    const id = this.#plan.globalAttrs.get("id");
    if (id !== undefined) attrs.set("id", id);
    return batch.withGlobalAttrs(attrs);
  }

  #names(names: readonly string[] | undefined, method = "read"): string[] {
    const all = this.#plan.variables.map((v) => v.name);
    if (names === undefined) return all;
    if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) {
      throw new LanceNdError("InvalidInput", `dataset: ${method} takes an array of variable names`, {
        uri: this.#view.uri,
      });
    }
    for (const name of names) {
      if (!all.includes(name)) {
        throw new LanceNdError(
          "VariableNotFound",
          `dataset: no variable "${name}"; the variables are ${all.join(", ")}`,
          {
            uri: this.#view.uri,
            column: name,
          },
        );
      }
    }
    return [...new Set(names)];
  }

  async #resolve(): Promise<DimRange[]> {
    this.#ranges ??= (async () => {
      let ranges = wholeGrid(this.#plan.grid);
      for (const step of this.#steps) {
        ranges =
          step.kind === "isel"
            ? applyIsel(this.#view.uri, this.#plan.grid, ranges, step.spec)
            : await applySel(this.#view, this.#plan, ranges, step.spec, step.options, this.#coordinates);
      }
      return ranges;
    })();
    return this.#ranges;
  }
}

/**
 * Opens the dataset that the rows of `table` matching `where` make up (all
 * rows when omitted), pinned to the table's current version: `dims`, the
 * chunk plan and every read of the view use that version; `refresh()` moves
 * to the latest. Rows are placed by their `chunk_offset` global attribute
 * (cell 0 when absent); the grid starts at the rows' smallest
 * `chunk_offset` along each dim, so the rows a `where` selects from the
 * middle of a dataset are a dataset of their own. Rows of layouts (README
 * "Layouts") are never among them: reads take a layout through its dataset. Planning reads no values:
 * `_rowid`, the global attributes, each variable's dim names and sizes, and
 * the stats columns. Cells no row holds (a gap: rows removed by a repair)
 * fail only the reads that need them.
 *
 * @throws LanceNdError `InvalidInput` for options that are not
 * {@link DatasetOptions} (zod-checked), a bad `where`, no matching row,
 * rows of several datasets (different `id`s), different grids, or rows that
 * overlap (naming the rows' ids and offsets).
 * @example
 * const ds = await dataset(table, { where: col("__global_attrs__.id").eq("sst-2000.nc") });
 * ds.dims; // [{ name: "time", size: 365 }, { name: "lat", size: 180 }, { name: "lon", size: 360 }]
 */
export async function dataset(table: NdTable, options: DatasetOptions = {}): Promise<Dataset> {
  checkTable(table, "dataset");
  const { where, layout } = parseOptions(datasetOptionsSchema, options, "dataset", lanceNdOptionsError(table.uri));
  const version = await table.version();
  const view = table.readOnly ? table : await table.checkout(version);
  const conditions = [
    ...(where === undefined ? [] : [{ kind: "nd" as const, sql: where instanceof Expr ? where.toSql() : where }]),
    ...notLayoutRows(view),
  ];
  const { filter } = planRead(view.uri, view.layout, { projection: [], conditions });
  const plan = await planDataset(view, filter);
  const layouts = await readLayouts(view, plan);
  const chosen = layout === undefined ? layouts : [forcedLayout(view.uri, layouts, layout)];
  return new Dataset(table, view, version, { ...options }, plan, chosen, [], new Map());
}

function checkSelSpec(uri: string, spec: unknown, options: unknown): asserts spec is SelSpec {
  const isValue = (v: unknown) =>
    (typeof v === "number" && Number.isFinite(v)) ||
    typeof v === "bigint" ||
    v instanceof Date ||
    (typeof v === "string" && v.trim() !== "");
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw new LanceNdError("InvalidInput", `sel takes an object of dim: value or [a, b], got ${String(spec)}`, { uri });
  }
  for (const [dim, value] of Object.entries(spec)) {
    if (!(isValue(value) || (Array.isArray(value) && value.length === 2 && value.every(isValue)))) {
      throw new LanceNdError(
        "InvalidInput",
        `sel: "${dim}" is ${String(value)}, expected a number, bigint, Date or text, or a pair of them`,
        { uri },
      );
    }
  }
  const method = (options as SelOptions | null)?.method;
  if (typeof options !== "object" || options === null || (method !== undefined && method !== "nearest")) {
    throw new LanceNdError("InvalidInput", `sel: method is "nearest" or absent, got ${String(method)}`, { uri });
  }
  const tolerance = (options as SelOptions).tolerance;
  if (tolerance !== undefined && !(typeof tolerance === "number" && tolerance >= 0 && method === "nearest")) {
    throw new LanceNdError(
      "InvalidInput",
      `sel: tolerance is a number >= 0 with method "nearest", got ${String(tolerance)}${method === undefined ? " without it" : ""}`,
      { uri },
    );
  }
}
