/**
 * `lance-nd export --format zarr` (CLI README, "Zarr"): the selected rows
 * streamed into a Zarr store, one row at a time in table order, each row's
 * blocks written as the chunks they cover.
 */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeZarr } from "@lance-nd/zarr";
import type { WriteZarrOptions } from "@lance-nd/zarr";
import { columnDefaults, scan } from "lance-nd";
import type { Dataset, NdTable } from "lance-nd";
import { droppedDims, type SelectionOptions } from "../args/selection.js";
import { CliError } from "../errors.js";
import { tableCfMode } from "./import-guard.js";
import { cfOptions } from "./import-plan.js";
import { selectedView, viewRows } from "./read-region.js";
import { zarrCall } from "./zarr-errors.js";

/** The Zarr codecs `--compression` chooses from. */
export type ZarrCompression = NonNullable<WriteZarrOptions["compression"]>;

/** What `export --format zarr` takes from the command line. */
export interface ZarrExportOptions extends SelectionOptions {
  where?: string;
  project?: string[];
  compression?: { codec: string; level?: number };
  zarrVersion: 2 | 3;
  chunks?: ReadonlyMap<string, number>;
}

/** What an export wrote, for the summary. */
export interface ExportSummary {
  file: string;
  format: "netcdf" | "zarr";
  rows: number;
  variables: string[];
  grid: { name: string; size: number }[];
  globalAttrs: string[];
}

/**
 * Writes the dataset that `options` select from `table` as a Zarr store at
 * `out`, streaming: one table row (cut to the selection) in memory at a
 * time, values as stored (the table's `--cf` decoding undone), without the
 * `id` that import added. Chunks: `options.chunks` along the dims it names,
 * else the table's rows (see {@link rowChunks}). A `ZarrError` becomes a
 * `CliError`; a failed write leaves `out` as it was.
 */
export async function exportZarr(table: NdTable, out: string, options: ZarrExportOptions): Promise<ExportSummary> {
  const compression = zarrCompression(options.compression) ?? (await tableZarrCompression(table));
  const view = await selectedView(table, options.where, options);
  const chunks = { ...(await rowChunks(table, view, options)), ...Object.fromEntries(options.chunks ?? []) };
  let globalAttrs: string[] = [];
  async function* rows(): AsyncGenerator<NdRecordBatch> {
    for await (const row of viewRows(view, options.project, options)) {
      const attrs = new Map([...row.globalAttrs].filter(([key]) => key !== "id"));
      if (globalAttrs.length === 0) globalAttrs = [...attrs.keys()].filter((key) => key !== CHUNK_OFFSET);
      yield row.withGlobalAttrs(attrs);
    }
  }
  const written = await zarrCall(() =>
    writeZarr(out, rows(), {
      version: options.zarrVersion,
      chunks,
      compression,
      cf: cfOptions(tableCfMode(table)),
    }),
  );
  return {
    file: out,
    format: "zarr",
    rows: written.rows,
    variables: [...written.arrays],
    grid: written.dims.map((d) => ({ ...d })),
    globalAttrs,
  };
}

/** `--compression` for Zarr: none or zstd (a netCDF codec is `InvalidArgument`). */
function zarrCompression(compression: ZarrExportOptions["compression"]): ZarrCompression | undefined {
  if (compression === undefined || compression.codec === "none" || compression.codec === "zstd")
    return compression as ZarrCompression | undefined;
  throw new CliError(
    "InvalidArgument",
    `--compression ${compression.codec} does not go with --format zarr (netCDF: none or deflate, Zarr: none or zstd)`,
  );
}

/**
 * The chunk sizes that make one Zarr chunk of each table row: along every
 * dim the selection keeps, the step between the rows' starts that occurs
 * most (the whole dim when the rows are not cut along it), at most the
 * selection's extent. Reads only the rows' global attributes (their
 * `chunk_offset`) and, for a `--sel` dim, its coordinate. Rows of other
 * sizes, and rows a selection cuts, are written into these chunks in pieces.
 */
async function rowChunks(table: NdTable, view: Dataset, options: ZarrExportOptions): Promise<Record<string, number>> {
  let rows = scan(table).project([]);
  if (options.where !== undefined) rows = rows.filter(options.where);
  const starts = view.dims.map(() => new Set<number>());
  for await (const row of rows) {
    const offset = row.globalAttr(CHUNK_OFFSET);
    if (!Array.isArray(offset) || offset.length !== starts.length) continue;
    for (const [d, start] of offset.entries()) starts[d]!.add(Number(start));
  }
  const dropped = droppedDims(options);
  const chunks: Record<string, number> = {};
  for (const [d, { name, size }] of view.dims.entries()) {
    if (dropped.has(name)) continue;
    const step = mostCommonStep([...starts[d]!].sort((a, b) => a - b)) ?? size;
    chunks[name] = Math.max(1, Math.min(step, await extent(view, name, size, options)));
  }
  return chunks;
}

/** The most common gap between sorted distinct starts, `undefined` for fewer than two. */
function mostCommonStep(starts: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (let i = 1; i < starts.length; i++) {
    const gap = starts[i]! - starts[i - 1]!;
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [gap, count] of counts) if (best === undefined || count > counts.get(best)!) best = gap;
  return best;
}

/** How many cells along `dim` the selection keeps: its `--sel` coordinate's length, its `--isel` range, or `size`. */
async function extent(view: Dataset, dim: string, size: number, options: SelectionOptions): Promise<number> {
  if (options.sel?.has(dim)) return (await view.coord(dim)).size;
  const range = options.isel?.get(dim);
  return Array.isArray(range) ? Math.max(0, Math.min(range[1], size) - range[0]) : size;
}

/**
 * The Zarr codec matching a table's encoding (its column defaults, CLI
 * README "Encoding defaults"): none stays none, zstd keeps its level, and
 * anything else (lz4, Lance's own) is zstd, Zarr's usual codec.
 */
export async function tableZarrCompression(table: NdTable): Promise<ZarrCompression> {
  const compression = (await columnDefaults(table)).compression;
  if (compression === "none") return { codec: "none" };
  if (typeof compression === "object" && compression.codec === "zstd" && compression.level !== undefined)
    return { codec: "zstd", level: compression.level };
  return { codec: "zstd" };
}
