/**
 * One dataset of a table served as a Zarr group (README "Serving as
 * Zarr"): its metadata documents, computed once (the same encoding as
 * `lance-nd export --format zarr`: `sourceRow`, the table's CF encoding,
 * `@lance-nd/zarr`'s array metadata) but on the served chunk grid, and its
 * chunks, each computed on request from the rows it covers.
 */
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";
import {
  arrayMetadata,
  encodeArray,
  isZarrError,
  jsonBytes,
  wholeChunkBytes,
  zarrDocuments,
  type PlacedBlock,
  type WrittenArray,
} from "@lance-nd/zarr/encoding";
import { Dataset, type DatasetOptions } from "../dataset/dataset.js";
import { planDataset, type DatasetPlan } from "../dataset/plan.js";
import { firstCells } from "../dataset/first-cells.js";
import { LanceNdError } from "../errors.js";
import { readLayouts } from "../dataset/current-layouts.js";
import { toColumnName } from "../export/column-names.js";
import { tableCfEncoding } from "../export/cf-mode.js";
import { sourceRow } from "../export/source-row.js";
import { Expr } from "../read/expr.js";
import { planRead } from "../read/read-plan.js";
import type { NdTable } from "../table.js";
import { chunkGrid } from "./chunk-grid.js";
import { chunkIndex } from "./chunk-index.js";
import { compressionOf, encodeChunk } from "./chunk-codec.js";
import type { StoreSettings } from "./options.js";

/** A served variable: its metadata and where its dims sit on the grid. */
interface ServedArray {
  readonly meta: WrittenArray;
  readonly column: string;
  /** The number of chunks along each of its dims. */
  readonly chunkCounts: readonly number[];
  /** The grid position of each of its dims. */
  readonly dims: readonly number[];
  /** True when some rows do not hold it (null in the row): its chunks no such row covers are absent. */
  readonly partial: boolean;
}

/** A dataset as a Zarr group: metadata documents by key (relative to the group) and chunks on request. */
export class ServedDataset {
  readonly #view: NdTable;
  readonly #plan: DatasetPlan;
  readonly #dataset: Dataset;
  readonly #settings: StoreSettings;
  readonly #documents: ReadonlyMap<string, Uint8Array>;
  readonly #arrays: ReadonlyMap<string, ServedArray>;

  private constructor(
    view: NdTable,
    plan: DatasetPlan,
    dataset: Dataset,
    settings: StoreSettings,
    documents: ReadonlyMap<string, Uint8Array>,
    arrays: ReadonlyMap<string, ServedArray>,
  ) {
    this.#view = view;
    this.#plan = plan;
    this.#dataset = dataset;
    this.#settings = settings;
    this.#documents = documents;
    this.#arrays = arrays;
  }

  /**
   * Plans the dataset of the rows `rows` selects in `view` (a pinned
   * version) and computes its metadata from one cell of each variable, in
   * the first row on the grid that holds it: usually one row read.
   */
  static async open(view: NdTable, rows: DatasetOptions, settings: StoreSettings): Promise<ServedDataset> {
    const conditions = rows.where instanceof Expr ? [{ kind: "nd" as const, sql: rows.where.toSql() }] : [];
    const { filter } = planRead(view.uri, view.layout, { projection: [], conditions });
    const plan = await planDataset(view, filter);
    // Chunk reads take the dataset's cheapest current layout, as every dataset read (README "Layouts").
    const layouts = await readLayouts(view, plan);
    const dataset = new Dataset(view, view, await view.version(), rows, plan, layouts, [], new Map());
    const position = new Map(plan.grid.map((d, k) => [d.name, k]));
    const chunk = chunkGrid(plan.grid, plan.rows, dimSets(plan, position), settings.maxChunkRows);
    const chunkSizes = Object.fromEntries(plan.grid.map((d, k) => [d.name, chunk[k]!]));
    const arrays = new Map<string, ServedArray>();
    for await (const [name, array] of sourceCells(plan, dataset)) {
      const shape = array.dimNames.map((d) => plan.grid[position.get(d)!]!.size);
      const meta = zarrCall(view, name, () =>
        arrayMetadata(name, encoded(view, name, array), settings.zarrVersion, shape, chunkSizes, where(view, name)),
      );
      const column = toColumnName(name);
      arrays.set(name, {
        meta,
        column,
        chunkCounts: shape.map((size, d) => Math.ceil(size / meta.chunkShape[d]!)),
        dims: meta.dims.map((d) => position.get(d)!),
        partial: plan.rows.some((row) => !row.variables.has(column)),
      });
    }
    const docs = zarrCall(view, undefined, () =>
      zarrDocuments(
        settings.zarrVersion,
        sourceRow(new NdRecordBatch({}, plan.globalAttrs)).globalAttrs,
        [...arrays.values()].map((a) => a.meta),
        compressionOf(settings),
        { path: view.uri },
      ),
    );
    const documents = new Map([...docs].map(([key, doc]) => [key, jsonBytes(doc)]));
    return new ServedDataset(view, plan, dataset, settings, documents, arrays);
  }

  /**
   * The bytes of `key` (relative to the group: `.zmetadata`, `sst/.zarray`,
   * `sst/0.1`, `sst/c/0/1`), `undefined` for a key the group does not have
   * (a chunk index past the array's grid, an unknown variable).
   */
  async get(key: string): Promise<Uint8Array | undefined> {
    const document = this.#documents.get(key);
    // A copy: the caller may keep or change the bytes it gets.
    if (document !== undefined) return document.slice();
    const slash = key.indexOf("/");
    if (slash < 0) return undefined;
    const array = this.#arrays.get(key.slice(0, slash));
    if (array === undefined) return undefined;
    const index = chunkIndex(key.slice(slash + 1), array.chunkCounts, this.#settings.zarrVersion);
    return index === undefined ? undefined : this.#chunk(array, index);
  }

  /**
   * Chunk `index` of `array`: the blocks of the rows it meets that hold the
   * variable (at most `maxChunkRows`, one at a time, each cut to the chunk)
   * placed and encoded; cells of rows without it are the fill value.
   */
  async #chunk(array: ServedArray, index: readonly number[]): Promise<Uint8Array | undefined> {
    const { meta, column } = array;
    if (array.partial && !this.#held(array, index)) return undefined;
    const region = Object.fromEntries(
      meta.dims.map((dim, d) => {
        const start = index[d]! * meta.chunkShape[d]!;
        return [dim, [start, Math.min(start + meta.chunkShape[d]!, meta.shape[d]!)] as [number, number]];
      }),
    );
    const blocks: PlacedBlock[] = [];
    for await (const { offset, batch } of this.#dataset.isel(region).blocks([column])) {
      const [name, block] = sourceRow(batch).arrays()[0]!;
      const at = array.dims.map((k) => offset[k]!);
      blocks.push({ block: zarrCall(this.#view, name, () => encoded(this.#view, name, block)), at });
    }
    const bytes = zarrCall(this.#view, meta.name, () => wholeChunkBytes(blocks, meta, where(this.#view, meta.name)));
    return encodeChunk(bytes, this.#settings);
  }

  /** True when a row that the chunk `index` of `array` meets holds the variable. */
  #held(array: ServedArray, index: readonly number[]): boolean {
    const { meta, dims, column } = array;
    return this.#plan.rows.some(
      (row) =>
        row.variables.has(column) &&
        dims.every((k, d) => {
          const start = index[d]! * meta.chunkShape[d]!;
          return row.start[k]! < start + meta.chunkShape[d]! && start < row.start[k]! + row.size[k]!;
        }),
    );
  }
}

/** {@link firstCells} with source names, as the export writes them (`sourceRow`): each variable's type, dims and attributes. */
async function* sourceCells(plan: DatasetPlan, dataset: Dataset): AsyncGenerator<[string, NdArray]> {
  for await (const cells of firstCells(plan, dataset)) yield* sourceRow(cells).arrays();
}

/** The grid positions of the dims of each variable, one entry per distinct set. */
function dimSets(plan: DatasetPlan, position: ReadonlyMap<string, number>): number[][] {
  const sets = new Map<string, number[]>();
  for (const variable of plan.variables) {
    const dims = variable.dims.map((d) => position.get(d)!);
    sets.set(dims.join(","), dims);
  }
  return [...sets.values()];
}

/** `array` (a source row's) with its values as stored: the table's CF decoding undone. */
function encoded(view: NdTable, name: string, array: NdArray): NdArray {
  return encodeArray(array, tableCfEncoding(view), view.uri, name);
}

function where(view: NdTable, variable: string): { path: string; variable: string } {
  return { path: view.uri, variable };
}

/** `run`, a `ZarrError` (a type or attribute Zarr cannot hold, nulls without a fill value) as `InvalidInput`. */
function zarrCall<T>(view: NdTable, variable: string | undefined, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (!isZarrError(err)) throw err;
    throw new LanceNdError("InvalidInput", `zarrStore: ${err.message}`, {
      uri: view.uri,
      ...(variable === undefined ? {} : { column: variable }),
      cause: err,
    });
  }
}
