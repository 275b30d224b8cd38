/** A variable of a row as a PNG: a heatmap of two dims or a line of one; slice, title, units, axes, orientation. */
import { writeFile } from "node:fs/promises";
import { cfDecode } from "@lance-nd/cf";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { CliError } from "../errors.js";
import { formatValue } from "../output/row-text.js";
import { timeFormat, timeTexts } from "../output/time-text.js";
import { renderHeatmap } from "./heatmap.js";
import { renderLine } from "./line.js";
import { slice2d } from "./slice.js";

/** What {@link plotVariable} drew. */
export interface PlotSummary {
  /** The PNG file. */
  path: string;
  /** The plot title: the variable and the selected indices. */
  title: string;
  /** The dims along the rows and columns (no rows: a line along `cols`). */
  rows: string | null;
  cols: string;
  /** The smallest and largest finite value of the slice (null when none). */
  min: number | null;
  max: number | null;
}

/**
 * Plots variable `name` of `batch`, indexed with `isel` (see `slice2d`), to
 * a PNG at `path`: a heatmap when two dims are left, a line when one is. Values are decoded as CF says, by `@lance-nd/cf`'s
 * `cfDecode`: fill values (`_FillValue`, `missing_value`, netCDF's default
 * fill) are missing (grey, like null and NaN), the others are
 * `value * scale_factor + add_offset`. The title names the selected indices with their
 * coordinate values (times as dates of their calendar; a value picked by
 * that same text shown once); the colour bar shows the variable's `units`;
 * the axes tick coordinate values (or indices without a coordinate). When the
 * row dim has an ascending 1-D coordinate (e.g. latitude), row 0 is drawn
 * at the bottom (north up).
 *
 * `picked` names dims a region read already took single values of (and
 * dropped), with how they were picked (`"2"`, `"2000-02-15"`): the title
 * shows them with their coordinate value.
 *
 * Throws `CliError`: `InvalidArgument` for a variable the row lacks or a
 * slice that is not 2-D; `WriteFailed` when the file cannot be written.
 */
export async function plotVariable(
  batch: NdRecordBatch,
  name: string,
  isel: ReadonlyMap<string, number>,
  path: string,
  picked: ReadonlyMap<string, string> = new Map(),
): Promise<PlotSummary> {
  const array = batch.get(name);
  if (array === undefined) {
    throw new CliError(
      "InvalidArgument",
      `the selected row has no variable "${name}" (it has ${batch.names().join(", ")})`,
      { variable: name },
    );
  }
  // The CF decoding of @lance-nd/cf (a table imported with --cf decode is already decoded).
  const slice = slice2d(cfDecode(array, { mask: true, scale: true, times: false, name }), name, isel);
  const labels = [
    ...[...isel].map(([dim, index]) => [dim, String(index), coordinate(batch, dim, index)] as const),
    ...[...picked].map(([dim, label]) => [dim, label, coordinate(batch, dim, 0)] as const),
  ];
  const picks = labels.map(([dim, label, coord]) =>
    coord === undefined || coord === label ? `${dim}=${label}` : `${dim}=${label} (${coord})`,
  );
  const title = [name, ...picks].join("  ");
  const units = array.attr("units");
  const unitsOption = typeof units === "string" ? { units } : {};
  const nullMask = slice.nullMask === undefined ? {} : { nullMask: slice.nullMask };
  // Tick labels: a time without its zero seconds (2000-01-04, 2000-01-04T12:00Z).
  const axisLabel = (dim: string) => (index: number) =>
    (coordinate(batch, dim, index) ?? String(index)).replace(/T00:00:00Z$/, "").replace(/:00Z$/, "Z");
  const png =
    slice.rows === undefined
      ? renderLine(slice.values, { title, ...unitsOption, ...nullMask, xLabel: axisLabel(slice.cols.name) })
      : renderHeatmap(slice.values, slice.cols.size, slice.rows.size, {
          title,
          ...unitsOption,
          ...nullMask,
          origin: ascending(batch, slice.rows.name) ? "lower" : "upper",
          rowLabel: axisLabel(slice.rows.name),
          colLabel: axisLabel(slice.cols.name),
        });
  try {
    await writeFile(path, png);
  } catch (cause) {
    throw new CliError("WriteFailed", `${path}: cannot write (${(cause as { code?: string }).code ?? String(cause)})`, {
      path,
      cause,
    });
  }
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of slice.values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return {
    path,
    title,
    rows: slice.rows?.name ?? null,
    cols: slice.cols.name,
    min: Number.isFinite(min) ? min : null,
    max: Number.isFinite(max) ? max : null,
  };
}

/** The value of the 1-D coordinate variable of `dim` at `index`, as text (a time as a date, `time-text.ts`). */
function coordinate(batch: NdRecordBatch, dim: string, index: number): string | undefined {
  const coord = batch.get(dim);
  const scalar = coord?.rank === 0 && index === 0;
  if (coord === undefined || (!scalar && (coord.dims.length !== 1 || coord.dims[0]!.name !== dim))) return undefined;
  const format = timeFormat(coord);
  if (format === undefined) return formatValue(coord.values.get(index));
  return timeTexts(coord.values.slice(index, index + 1), format)[0] ?? "null";
}

/** True when `dim` has a numeric 1-D coordinate whose first value is below its last. */
function ascending(batch: NdRecordBatch, dim: string): boolean {
  const coord = batch.get(dim);
  if (coord === undefined || coord.dims.length !== 1 || coord.dims[0]!.name !== dim || coord.size < 2) return false;
  const first = Number(coord.values.get(0));
  const last = Number(coord.values.get(coord.size - 1));
  return first < last;
}
