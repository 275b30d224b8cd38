/**
 * A 1-D slice as a PNG line plot: the values joined in order (a NaN or null
 * breaks the line), axes with the value range left and the coordinate
 * values of ticked cells below, the title and the units on lines of their
 * own above.
 */
import { PNG } from "pngjs";
import { CliError } from "../errors.js";
import {
  BOTTOM_TICKS_HEIGHT,
  type Box,
  cellTicks,
  drawBottomTicks,
  drawFrame,
  drawLeftTicks,
  leftTicksWidth,
  setPixel,
  type Tick,
} from "./axes.js";
import type { Rgb } from "./colormap.js";
import { GLYPH_HEIGHT, drawText, textWidth } from "./font.js";
import { formatNumber } from "./heatmap.js";

/** Options of {@link renderLine}. */
export interface LineOptions {
  /** A line of text above the plot. */
  title?: string;
  /** The units of the values, on the line under the title. */
  units?: string;
  /** The label of value `i` (its coordinate value): ticks below the plot. */
  xLabel?: (index: number) => string;
}

/** The plot box of a line plot, in pixels. */
export const LINE_PLOT_SIZE = { w: 480, h: 240 } as const;

const MARGIN = 12;
const FONT_SCALE = 2;
const LINE: Rgb = [59, 82, 139];
const INK: Rgb = [34, 34, 34];

/**
 * Renders `values` (null where `nullMask` is set, and NaN, leave gaps) as a
 * line across a {@link LINE_PLOT_SIZE} box: value `i` at the middle of the
 * `i`-th of `values.length` equal cells, the smallest finite value at the
 * bottom and the largest at the top (ticked with their values and the one
 * between).
 *
 * Throws `CliError` `InvalidArgument` for no values.
 *
 * @example
 * await writeFile("ids.png", renderLine(ids, { title: "Id_of_parent_polygons", xLabel: (i) => String(i) }));
 */
export function renderLine(
  values: ArrayLike<number>,
  options: LineOptions & { nullMask?: ArrayLike<number | boolean> } = {},
): Buffer {
  const n = values.length;
  if (n < 1) throw new CliError("InvalidArgument", "a line plot needs at least one value");
  const ys = Float64Array.from(values, (v, i) => (options.nullMask?.[i] ? Number.NaN : v));
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of ys) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const { w, h } = LINE_PLOT_SIZE;
  const finite = Number.isFinite(lo);
  const yTicks: Tick[] = finite
    ? [hi, (lo + hi) / 2, lo].map((v, k) => ({ at: Math.round((k * (h - 1)) / 2), label: formatNumber(v) }))
    : [];
  const xTicks = options.xLabel === undefined ? [] : cellTicks(n, w, options.xLabel, { vertical: false });
  const textH = GLYPH_HEIGHT * FONT_SCALE;
  const title = options.title ?? "";
  const units = options.units ?? "";
  const lines = (title === "" ? 0 : 1) + (units === "" ? 0 : 1);
  const plot: Box = { x: MARGIN + leftTicksWidth(yTicks), y: MARGIN + lines * (textH + MARGIN), w, h };
  const imageW =
    Math.max(plot.x + w, MARGIN + textWidth(title, FONT_SCALE), MARGIN + textWidth(units, FONT_SCALE)) + MARGIN;
  const imageH = plot.y + h + (xTicks.length > 0 ? BOTTOM_TICKS_HEIGHT + 2 : 0) + MARGIN;

  const png = new PNG({ width: imageW, height: imageH });
  png.data.fill(255);
  drawFrame(png.data, imageW, plot);
  drawLeftTicks(png.data, imageW, plot, yTicks);
  drawBottomTicks(png.data, imageW, plot, xTicks);
  if (finite) {
    const x = (i: number) => plot.x + Math.round(((i + 0.5) * w) / n - 0.5);
    const y = (v: number) => plot.y + Math.round(hi === lo ? (h - 1) / 2 : ((hi - v) * (h - 1)) / (hi - lo));
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(ys[i]!)) continue;
      if (i + 1 < n && Number.isFinite(ys[i + 1]!)) segment(png.data, imageW, x(i), y(ys[i]!), x(i + 1), y(ys[i + 1]!));
      else setPixel(png.data, imageW, x(i), y(ys[i]!), LINE);
    }
  }
  if (title !== "") drawText(png.data, imageW, title, MARGIN, MARGIN, FONT_SCALE, INK);
  if (units !== "") drawText(png.data, imageW, units, MARGIN, plot.y - MARGIN - textH, FONT_SCALE, INK);
  return PNG.sync.write(png);
}

/** A straight line from (x0, y0) to (x1, y1), 2 pixels thick (Bresenham). */
function segment(rgba: Uint8Array, imageW: number, x0: number, y0: number, x1: number, y1: number): void {
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  for (let [x, y] = [x0, y0]; ; ) {
    setPixel(rgba, imageW, x, y, LINE);
    setPixel(rgba, imageW, x, y + 1, LINE);
    if (x === x1 && y === y1) return;
    const e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y += sy;
    }
  }
}
