/**
 * `rechunk` and `dropLayout`: another layout of a dataset, the same values
 * cut into rows of a new chunk shape, written under `<id>@<name>` next to
 * the source (README "Layouts").
 */
import { parseOptions } from "@lance-nd/casting/coded-error";
import { attr, chunk, CHUNK_OFFSET, GLOBAL_ATTRS_COLUMN, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { z } from "zod";
import { LanceNdError } from "../errors.js";
import { lanceNdOptionsError } from "../option-errors.js";
import { withPureErrors } from "../pure-errors.js";
import { col } from "../read/expr.js";
import { planRead } from "../read/read-plan.js";
import type { NdTable } from "../table.js";
import { checkWritable } from "../table-check.js";
import { planDataset, type DatasetPlan } from "../dataset/plan.js";
import { readWindow } from "../dataset/read.js";
import { valueBytes } from "../dataset/row-bytes.js";
import { replaceRows } from "../write/replace-rows.js";
import { blockBytes, chunkCount, chunkShapeText, chunkSteps, slabs, type ChunkShape } from "./chunk-shape.js";
import { datasetLayouts, type LayoutState } from "../dataset/current-layouts.js";
import {
  LAYOUT_CHUNK,
  LAYOUT_OF,
  LAYOUT_ROWS,
  LAYOUT_SEPARATOR,
  LAYOUT_SOURCE,
  LAYOUT_SOURCE_VERSION,
  SOURCE_LAYOUT,
  layoutId,
  rowsFingerprint,
} from "../dataset/layout-attrs.js";

const MiB = 1024 * 1024;

/** 64 MiB: the most values of the source `rechunk` holds at once (a slab of whole new chunks). */
const RECHUNK_SLAB_BYTES = 64 * MiB;

/**
 * The share of the slab budget a take of source rows holds at most (at
 * least one row): a slab's rows are taken a few at a time (8 MiB of values
 * at the default budget), each cut to the slab and dropped before the next
 * take.
 */
const TAKE_SHARE = 1 / 8;

/**
 * The bound of the rows `rechunk` has buffered or in Lance adds (the
 * writer's `memoryBudgetBytes`): lancedb holds about 4.7x the rows of its
 * adds in flight (README.md, "NdWriter sizing").
 */
const WRITE_BUDGET_BYTES = 32 * MiB;

/** Options of {@link rechunk}. */
export interface RechunkOptions {
  /** The `id` of the dataset to cut again. */
  id: string;
  /** The new chunk shape: per dim a size or `"all"`; dims left out are whole. */
  chunk: ChunkShape;
  /** The layout's name (its id is `<id>@<name>`). Default: the chunk shape as text, e.g. `time=all,lat=20,lon=20`. */
  name?: string;
  /** Rewrite the layout when it exists (stale or not); without it an existing layout is an error. */
  refresh?: boolean;
  /** @internal The most bytes of source values in a slab (default {@link RECHUNK_SLAB_BYTES}); a take holds an eighth of it. */
  slabBytes?: number;
}

/** What {@link rechunk} wrote. */
export interface RechunkResult {
  /** The layout's name. */
  name: string;
  /** The layout's id, `<id>@<name>`. */
  id: string;
  /** Its chunk shape, in grid order. */
  chunk: string;
  /** The rows written. */
  rows: number;
  /** The source version it mirrors. */
  sourceVersion: number;
  /** The table version after the rechunk. */
  version: number;
}

const nameSchema = z
  .string()
  .trim()
  .min(1)
  .refine((name) => !name.includes(LAYOUT_SEPARATOR) && name !== SOURCE_LAYOUT, {
    error: `a layout name has no "${LAYOUT_SEPARATOR}" and is not "${SOURCE_LAYOUT}"`,
  });

const rechunkOptionsSchema = z.strictObject({
  id: z.string().min(1, { error: "id names the dataset to cut again" }),
  chunk: z.record(z.string(), z.union([z.number(), z.literal("all")])),
  name: nameSchema.optional(),
  refresh: z.boolean().optional(),
  slabBytes: z.number().int().positive().optional(),
});

/**
 * Writes another layout of the dataset `id` of `table`: its values cut
 * into rows of the chunk shape `chunk`, under the id `<id>@<name>` with the
 * global attributes `layout_of = <id>` and the completion record of README
 * "Layouts" (`layout_rows`, `layout_source`). Reads the source at its
 * current version slab by slab (whole new chunks, at most 64 MiB of values
 * each), a slab's source rows 8 MiB of values a take, each cut to the slab
 * and dropped before the next, streaming the rows to the table (at most 32
 * MiB of rows buffered or in adds): memory follows the budget, never the
 * dataset. Reads of the dataset then take the layout whose rows
 * hold the fewest bytes for each selection, as long as the source has not
 * changed since (then `refresh: true` rewrites it). A failed rechunk removes
 * what it wrote; a killed one leaves rows that are never read (the layout is
 * incomplete) until a `refresh` or `dropLayout`.
 *
 * @throws LanceNdError `InvalidInput` for bad options (an unknown dim, a
 * size that is not an integer >= 1 or "all", a name with "@" or "source"),
 * no dataset `id`, a dataset that is itself a layout, a layout that exists
 * without `refresh` (or none with it), a dataset with an empty dim; the
 * errors of `append`.
 * @example
 * await rechunk(table, { id: "era5.nc", chunk: { time: "all", lat: 20, lon: 20 }, name: "series" });
 * await (await dataset(table, { where: col("__global_attrs__.id").eq("era5.nc") })).isel({ lat: 3, lon: 4 }).read(); // reads era5.nc@series
 */
export async function rechunk(table: NdTable, options: RechunkOptions): Promise<RechunkResult> {
  checkWritable(table, "rechunk");
  const parsed = parseOptions(rechunkOptionsSchema, options, "rechunk", lanceNdOptionsError(table.uri));
  const { id, chunk: shape, refresh = false, slabBytes = RECHUNK_SLAB_BYTES } = parsed;
  const sourceVersion = await table.version();
  const view = await table.checkout(sourceVersion);
  const source = await planSource(view, id);
  const steps = chunkSteps(table.uri, source.grid, shape);
  const chunkText = chunkShapeText(source.grid, steps);
  const name = parsed.name ?? chunkText;
  const layout = layoutId(id, name);
  const existing = (await datasetLayouts(view, id, source)).find((state) => state.id === layout);
  checkExisting(table.uri, layout, existing, refresh);
  const rows = chunkCount(source.grid, steps);
  const stamp = {
    [LAYOUT_OF]: attr.utf8(id),
    [LAYOUT_SOURCE]: attr.utf8(rowsFingerprint(source.rows.map((row) => row.rowId))),
    [LAYOUT_SOURCE_VERSION]: attr.int64(sourceVersion),
    [LAYOUT_ROWS]: attr.int64(rows),
    [LAYOUT_CHUNK]: attr.utf8(chunkText),
  };
  const cut = layoutRows(view, source, steps, slabBytes, (batch, offset) =>
    batch.withGlobalAttrs(
      new Map([...batch.globalAttrs, ...Object.entries(stamp)])
        .set("id", attr.utf8(layout))
        .set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(offset))),
    ),
  );
  await replaceRows(table, cut, col(`${GLOBAL_ATTRS_COLUMN}.id`).eq(layout), {
    memoryBudgetBytes: WRITE_BUDGET_BYTES,
  });
  return { name, id: layout, chunk: chunkText, rows, sourceVersion, version: await table.version() };
}

/**
 * Removes layout `name` of dataset `id` (every row of `<id>@<name>`), in one
 * delete. Returns the rows removed.
 *
 * @throws LanceNdError `InvalidInput` when the table holds no row of it.
 */
export async function dropLayout(table: NdTable, id: string, name: string): Promise<number> {
  checkWritable(table, "dropLayout");
  const layout = layoutId(id, name);
  const { deleted } = await table.delete(col(`${GLOBAL_ATTRS_COLUMN}.id`).eq(layout));
  if (deleted === 0) {
    throw new LanceNdError(
      "InvalidInput",
      `dropLayout: dataset "${id}" has no layout "${name}" (no row of id "${layout}")`,
      {
        uri: table.uri,
      },
    );
  }
  return deleted;
}

/** The plan of dataset `id` in `view`, which must not be a layout itself and have no empty dim. */
async function planSource(view: NdTable, id: string): Promise<DatasetPlan> {
  const { filter } = planRead(view.uri, view.layout, {
    projection: [],
    conditions: [{ kind: "nd", sql: col(`${GLOBAL_ATTRS_COLUMN}.id`).eq(id).toSql() }],
  });
  const source = await planDataset(view, filter);
  const of = source.globalAttrs.get(LAYOUT_OF)?.toJS();
  if (of !== undefined && of !== null) {
    throw new LanceNdError("InvalidInput", `rechunk: "${id}" is a layout of "${String(of)}"; rechunk "${String(of)}"`, {
      uri: view.uri,
    });
  }
  const empty = source.grid.find((d) => d.size === 0);
  if (empty !== undefined) {
    throw new LanceNdError(
      "InvalidInput",
      `rechunk: dim "${empty.name}" of "${id}" is empty; there is nothing to cut`,
      {
        uri: view.uri,
      },
    );
  }
  return source;
}

function checkExisting(uri: string, layout: string, existing: LayoutState | undefined, refresh: boolean): void {
  if (existing !== undefined && !refresh) {
    const state = existing.stale === null ? "current" : `stale: ${existing.stale}`;
    throw new LanceNdError("InvalidInput", `rechunk: layout "${layout}" exists (${state}); refresh rewrites it`, {
      uri,
    });
  }
  if (existing === undefined && refresh) {
    throw new LanceNdError("InvalidInput", `rechunk: no layout "${layout}" to refresh`, { uri });
  }
}

/**
 * The source's values cut into rows of `steps`, slab by slab, each row
 * stamped by `stamp` with its `chunk_offset` (in its own grid order, in the
 * source's frame). A slab's window is dropped once cut, and each row once
 * the writer took it.
 */
async function* layoutRows(
  view: NdTable,
  source: DatasetPlan,
  steps: readonly number[],
  slabBytes: number,
  stamp: (batch: NdRecordBatch, offset: number[]) => NdRecordBatch,
): AsyncGenerator<NdRecordBatch> {
  const bytesOf = blockBytes(
    source.grid,
    source.variables.map((v) => ({ dims: v.dims, bytes: valueBytes(v.type) })),
  );
  for (const slab of slabs(source.grid, steps, bytesOf, slabBytes)) {
    const pieces = await slabRows(view, source, steps, slab, slabBytes * TAKE_SHARE);
    for (let piece = pieces.pop(); piece !== undefined; piece = pieces.pop()) yield stamp(piece.batch, piece.offset);
  }
}

/**
 * The rows of `steps` in `slab` of the source, last first, each with its
 * `chunk_offset` in the source's frame: the source rows taken in takes of
 * about `takeBytes` of values.
 */
async function slabRows(
  view: NdTable,
  source: DatasetPlan,
  steps: readonly number[],
  slab: readonly [number, number][],
  takeBytes: number,
): Promise<{ batch: NdRecordBatch; offset: number[] }[]> {
  const position = new Map(source.grid.map((d, i) => [d.name, i]));
  const ranges = slab.map(([start, stop]) => ({ start, stop, drop: false }));
  const values = await readWindow(
    view,
    source,
    ranges,
    source.variables.map((v) => v.name),
    takeBytes,
  );
  const grid = values.grid();
  const pieces = withPureErrors({ uri: view.uri }, () =>
    chunk(values, Object.fromEntries(grid.map((d) => [d.name, steps[position.get(d.name)!]!]))),
  );
  return pieces
    .map((piece) => {
      const within = Array.from(piece.globalAttrs.get(CHUNK_OFFSET)!.value as Iterable<number>, Number);
      const offset = grid.map((d, i) => {
        const at = position.get(d.name)!;
        return source.origin[at]! + slab[at]![0] + within[i]!;
      });
      const attrs = new Map(piece.globalAttrs);
      attrs.delete(CHUNK_OFFSET);
      return { batch: piece.withGlobalAttrs(attrs), offset };
    })
    .reverse();
}
