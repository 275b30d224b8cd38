/**
 * The region that `--isel` / `--sel` select, read through lance-nd's dataset
 * view: only the rows (chunks) the selection touches are taken, each cut to
 * the selection; as blocks (one per row) or as one dataset.
 */
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { dataset } from "lance-nd";
import type { Dataset, NdTable } from "lance-nd";
import { selectionSpecs, type SelectionOptions } from "../args/selection.js";
import type { DatasetRead } from "./one-dataset.js";

/** The dataset of the rows `where` selects, narrowed by the options (`--isel` first, then `--sel`). */
export async function selectedView(
  table: NdTable,
  where: string | undefined,
  options: SelectionOptions,
): Promise<Dataset> {
  const { isel, sel, selOptions } = selectionSpecs(options);
  const ds = await dataset(table, {
    ...(where === undefined ? {} : { where }),
    ...(options.layout === undefined ? {} : { layout: options.layout }),
  });
  return ds.isel(isel).sel(sel, selOptions);
}

/**
 * The selection's blocks as rows: one per touched table row, each with a
 * `chunk_offset` global attribute = where the block starts in the selection
 * (along the dims the selection keeps), at most `limit`.
 */
export async function* regionRows(
  table: NdTable,
  where: string | undefined,
  names: readonly string[] | undefined,
  options: SelectionOptions,
  limit = Infinity,
): AsyncGenerator<NdRecordBatch> {
  yield* viewRows(await selectedView(table, where, options), names, limit);
}

/** The blocks of `view` as rows with their `chunk_offset` (along the dims it keeps), like {@link regionRows}. */
export async function* viewRows(
  view: Dataset,
  names: readonly string[] | undefined,
  limit = Infinity,
): AsyncGenerator<NdRecordBatch> {
  const kept = (await view.selectedDims()).map((d) => d.name);
  let count = 0;
  for await (const block of view.blocks(names)) {
    if (count++ >= limit) return;
    const start = block.batch.grid().map((d) => block.offset[kept.indexOf(d.name)]!);
    yield block.batch.withGlobalAttrs(
      new Map([...block.batch.globalAttrs, [CHUNK_OFFSET, attr.uint32(Uint32Array.from(start))]]),
    );
  }
}

/** The selection as one dataset (lance-nd's dataset read), with the number of table rows it took. */
export async function readRegion(
  table: NdTable,
  where: string | undefined,
  names: readonly string[] | undefined,
  options: SelectionOptions,
): Promise<DatasetRead> {
  const view = await selectedView(table, where, options);
  const dataset = await view.read(names);
  return { dataset, rows: await view.rowsRead(names) };
}
