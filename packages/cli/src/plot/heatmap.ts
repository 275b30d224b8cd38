/**
 * A 2-D slice as a PNG heatmap: viridis cells scaled up with nearest
 * neighbour, axes with the coordinate values of ticked rows and columns, a
 * colour bar with the value range and the units, a title on its own line.
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
} from "./axes.js";
import { NAN_COLOR, colorIndex, viridis } from "./colormap.js";
import type { Rgb } from "./colormap.js";
import { GLYPH_HEIGHT, drawText, textWidth } from "./font.js";

/** Options of {@link renderHeatmap}. */
export interface HeatmapOptions {
  /** The value drawn as the first viridis colour; default: the smallest finite value. */
  min?: number;
  /** The value drawn as the last viridis colour; default: the largest finite value. */
  max?: number;
  /** A line of text above the plot. */
  title?: string;
  /** The units, drawn above the colour bar. */
  units?: string;
  /** Cells that are null (truthy entries), drawn in {@link NAN_COLOR} like NaN. */
  nullMask?: ArrayLike<number | boolean>;
  /**
   * Where row 0 goes: "upper" (default) draws it at the top, "lower" at the
   * bottom, which puts north up when the rows follow an ascending latitude.
   */
  origin?: "upper" | "lower";
  /** The label of row `i` (its coordinate value): ticks left of the plot. */
  rowLabel?: (index: number) => string;
  /** The label of column `i`: ticks below the plot. */
  colLabel?: (index: number) => string;
}

/** Values of a slice: any numeric typed array or array of numbers. */
export type HeatmapValues = ArrayLike<number> | BigInt64Array | BigUint64Array;

/** Plots narrower than this are scaled up by a whole factor. */
export const MIN_PLOT_WIDTH = 360;

/** The plot is at most this many times taller than wide, or wider than tall (rows are then sampled or stretched). */
export const MAX_ASPECT = 2;

const MARGIN = 12;
const FONT_SCALE = 2;
const BAR_WIDTH = 22;
const GAP = 14;
const INK: Rgb = [34, 34, 34];

/**
 * Renders `values` (row-major, `height` rows of `width` cells) as a PNG.
 * Cells map linearly from [min, max] onto viridis (values outside clamp);
 * NaN and null cells are light grey ({@link NAN_COLOR}). Each cell becomes
 * an s x s block with s the smallest whole factor that makes the plot at
 * least {@link MIN_PLOT_WIDTH} pixels wide; a plot more than
 * {@link MAX_ASPECT} times taller than wide (a long time axis) or wider
 * than tall is brought to that aspect, sampling or stretching rows. A colour
 * bar on the right shows the range (max at the top, min at the bottom, the
 * middle value between) under the units; the title has a line of its own
 * above, so the two never meet. `rowLabel` / `colLabel` add ticks with
 * coordinate values left of and below the plot.
 *
 * Throws `CliError` `InvalidArgument` when `values.length` is not
 * `width * height` or a size is not a positive integer.
 *
 * @example
 * const png = renderHeatmap(sst, 360, 180, { title: "sst time=0", units: "degC", origin: "lower" });
 * await writeFile("sst.png", png);
 */
export function renderHeatmap(
  values: HeatmapValues,
  width: number,
  height: number,
  options: HeatmapOptions = {},
): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new CliError("InvalidArgument", `a heatmap needs positive whole sizes, got ${width} x ${height}`);
  }
  if (values.length !== width * height) {
    throw new CliError("InvalidArgument", `${values.length} values do not fill a ${width} x ${height} heatmap`);
  }
  const cells = toNumbers(values, options.nullMask);
  const [lo, hi] = range(cells, options.min, options.max);
  const scale = Math.max(1, Math.ceil(MIN_PLOT_WIDTH / width));
  const plotW = width * scale;
  const plotH = Math.min(Math.max(height * scale, Math.ceil(plotW / MAX_ASPECT)), MAX_ASPECT * plotW);
  const origin = options.origin ?? "upper";
  const rowTicks =
    options.rowLabel === undefined
      ? []
      : cellTicks(height, plotH, options.rowLabel, { vertical: true, flip: origin === "lower" });
  const colTicks = options.colLabel === undefined ? [] : cellTicks(width, plotW, options.colLabel, { vertical: false });

  const labels = [hi, (lo + hi) / 2, lo].map(formatNumber);
  const textH = GLYPH_HEIGHT * FONT_SCALE;
  const labelW = Math.max(...labels.map((l) => textWidth(l, FONT_SCALE)));
  const units = options.units ?? "";
  const title = options.title ?? "";
  const lines = (title === "" ? 0 : 1) + (units === "" ? 0 : 1);
  const top = MARGIN + lines * (textH + MARGIN);
  const plot: Box = { x: MARGIN + leftTicksWidth(rowTicks), y: top, w: plotW, h: plotH };
  const barX = plot.x + plotW + GAP;
  const barH = Math.max(plotH, 3 * textH);
  const imageW =
    Math.max(
      barX + BAR_WIDTH + 6 + labelW,
      barX + textWidth(units, FONT_SCALE),
      MARGIN + textWidth(title, FONT_SCALE),
    ) + MARGIN;
  const imageH = top + Math.max(barH, plotH + (colTicks.length > 0 ? BOTTOM_TICKS_HEIGHT + 2 : 0)) + MARGIN;

  const png = new PNG({ width: imageW, height: imageH });
  const rgba = png.data;
  rgba.fill(255);
  drawCells(rgba, imageW, cells, width, height, plot, lo, hi, origin);
  drawFrame(rgba, imageW, plot);
  drawLeftTicks(rgba, imageW, plot, rowTicks);
  drawBottomTicks(rgba, imageW, plot, colTicks);

  const bar: Box = { x: barX, y: top, w: BAR_WIDTH, h: barH };
  drawBar(rgba, imageW, bar);
  drawFrame(rgba, imageW, bar);
  const labelX = barX + BAR_WIDTH + 6;
  drawText(rgba, imageW, labels[0]!, labelX, top, FONT_SCALE, INK);
  drawText(rgba, imageW, labels[1]!, labelX, top + Math.round((barH - textH) / 2), FONT_SCALE, INK);
  drawText(rgba, imageW, labels[2]!, labelX, top + barH - textH, FONT_SCALE, INK);
  if (title !== "") drawText(rgba, imageW, title, MARGIN, MARGIN, FONT_SCALE, INK);
  if (units !== "") drawText(rgba, imageW, units, barX, top - MARGIN - textH, FONT_SCALE, INK);
  return PNG.sync.write(png);
}

/** The values as float64, NaN where null. */
function toNumbers(values: HeatmapValues, nullMask: HeatmapOptions["nullMask"]): Float64Array {
  const out =
    values instanceof BigInt64Array || values instanceof BigUint64Array
      ? Float64Array.from(values, Number)
      : Float64Array.from(values as ArrayLike<number>);
  if (nullMask !== undefined) for (let i = 0; i < out.length; i++) if (nullMask[i]) out[i] = Number.NaN;
  return out;
}

/** [min, max] of the finite values unless given; NaN when there is none. */
function range(cells: Float64Array, min: number | undefined, max: number | undefined): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  if (min === undefined || max === undefined) {
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  lo = min ?? (Number.isFinite(lo) ? lo : Number.NaN);
  hi = max ?? (Number.isFinite(hi) ? hi : Number.NaN);
  return [lo, hi];
}

/** The cells into `box`: each pixel takes the cell under it (whole blocks at a whole scale; rows sampled past the aspect). */
function drawCells(
  rgba: Uint8Array,
  imageW: number,
  cells: Float64Array,
  width: number,
  height: number,
  box: Box,
  lo: number,
  hi: number,
  origin: "upper" | "lower",
): void {
  const lut = viridis();
  // One colour per cell first, then each pixel takes its cell's colour.
  const colors = new Uint8Array(cells.length * 3);
  for (let i = 0; i < cells.length; i++) {
    const k = colorIndex(cells[i]!, lo, hi);
    const rgb: ArrayLike<number> = k < 0 ? NAN_COLOR : lut.subarray(3 * k, 3 * k + 3);
    colors[3 * i] = rgb[0]!;
    colors[3 * i + 1] = rgb[1]!;
    colors[3 * i + 2] = rgb[2]!;
  }
  const colOf = Int32Array.from({ length: box.w }, (_, px) => Math.floor((px * width) / box.w));
  for (let py = 0; py < box.h; py++) {
    const cellRow = Math.floor((py * height) / box.h);
    const row = origin === "upper" ? cellRow : height - 1 - cellRow;
    let o = 4 * ((box.y + py) * imageW + box.x);
    for (let px = 0; px < box.w; px++) {
      const c = 3 * (row * width + colOf[px]!);
      rgba[o] = colors[c]!;
      rgba[o + 1] = colors[c + 1]!;
      rgba[o + 2] = colors[c + 2]!;
      rgba[o + 3] = 255;
      o += 4;
    }
  }
}

/** The colour bar: the last viridis colour at the top, the first at the bottom. */
function drawBar(rgba: Uint8Array, imageW: number, box: Box): void {
  const lut = viridis();
  const { x: x0, y: y0, w, h } = box;
  for (let py = 0; py < h; py++) {
    const k = 3 * Math.round((255 * (h - 1 - py)) / Math.max(1, h - 1));
    for (let px = 0; px < w; px++) {
      const o = 4 * ((y0 + py) * imageW + x0 + px);
      rgba[o] = lut[k]!;
      rgba[o + 1] = lut[k + 1]!;
      rgba[o + 2] = lut[k + 2]!;
      rgba[o + 3] = 255;
    }
  }
}

/** A short label for a value: 4 significant digits, exponent notation for very large or small. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e6 || abs < 1e-3)) return value.toExponential(2);
  return String(Number(value.toPrecision(4)));
}
