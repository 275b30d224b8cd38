/**
 * Plots that a reader can read: the title never meets the colour bar's
 * units, the axes carry ticks with coordinate labels, a long dim does not
 * make a plot thousands of pixels tall, and a 1-D slice is a line. Checked
 * on the rendered PNGs, pixel by pixel.
 */
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { MAX_ASPECT, renderHeatmap } from "../../src/plot/heatmap.js";
import { LINE_PLOT_SIZE, renderLine } from "../../src/plot/line.js";

const WHITE = [255, 255, 255];

/** True when any pixel of the rectangle [x0, x1) x [y0, y1) is not white. */
function inked(png: PNG, x0: number, y0: number, x1: number, y1: number): boolean {
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const o = 4 * (y * png.width + x);
      if ([png.data[o], png.data[o + 1], png.data[o + 2]].some((c, k) => c !== WHITE[k])) return true;
    }
  return false;
}

/** The rows of the image that hold ink, as [first, last] runs. */
function inkRuns(png: PNG, x0: number, x1: number, y0: number, y1: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let y = y0; y < y1; y++) {
    if (!inked(png, x0, y, x1, y + 1)) continue;
    const last = runs.at(-1);
    if (last !== undefined && last[1] === y - 1) last[1] = y;
    else runs.push([y, y]);
  }
  return runs;
}

describe("heatmap pictures", () => {
  it("a title longer than the plot and the units each have a line: blank rows between them", () => {
    const title = "tas  time=2002-07-15T12:00:00Z  height=2 (2)  member=r1i1p1f1";
    const png = PNG.sync.read(
      renderHeatmap(Float32Array.of(0, 1, 2, 3), 2, 2, { title, units: "K", rowLabel: String, colLabel: String }),
    );
    // Above the plot (which starts at y = 64): the title's band, then the units' band, apart.
    const runs = inkRuns(png, 0, png.width, 0, 63);
    expect(runs).toEqual([
      [12, 25],
      [38, 51],
    ]);
    expect(png.width).toBeGreaterThan(12 + title.length * 12);
  });

  it("row and column ticks carry their labels left of and below the plot", () => {
    const lat = [-60, -30, 0, 30, 60];
    const png = PNG.sync.read(
      renderHeatmap(new Float64Array(5 * 40), 40, 5, {
        rowLabel: (i) => String(lat[i]),
        colLabel: (i) => `${i * 9}E`,
      }),
    );
    const plotX = 12 + 3 * 6 - 1 + 3 + 4; // the widest label ("-60", 3 glyphs at scale 1), a gap and the tick
    const plotH = 5 * 9; // 40 columns at scale 9 make 360 px; 5 rows of 9 px
    expect(inked(png, 0, 12, plotX - 1, 12 + plotH)).toBe(true);
    expect(inked(png, plotX, 12 + plotH + 1, plotX + 360, 12 + plotH + 1 + 14)).toBe(true);
    // The rows' labels sit in 5 separate bands.
    expect(inkRuns(png, 0, plotX - 8, 0, 12 + 2 * plotH).length).toBeGreaterThanOrEqual(3);
  });

  it("1,095 time steps by 180 longitudes: a plot at most MAX_ASPECT times taller than wide, not 3,000 px", () => {
    const png = PNG.sync.read(renderHeatmap(new Float32Array(1095 * 180), 180, 1095, { title: "tas" }));
    expect(png.height).toBeLessThanOrEqual(38 + MAX_ASPECT * 360 + 12);
    expect(png.width).toBeLessThan(600);
  });
});

describe("line pictures", () => {
  it("a 1-D slice is a line from the lowest value at the bottom to the highest at the top, NaN a gap", () => {
    const values = Float64Array.of(0, 1, 2, Number.NaN, 4);
    const png = PNG.sync.read(renderLine(values, { title: "ids", xLabel: String }));
    const { w, h } = LINE_PLOT_SIZE;
    expect(png.width).toBeGreaterThanOrEqual(w + 24);
    const plotY = 12 + 14 + 12;
    const plotX = png.width - 12 - w;
    // Value 0 at the bottom of the first cell's middle, 4 at the top of the last.
    const x0 = plotX + Math.round(w / 10 - 0.5);
    const x4 = plotX + Math.round((4.5 * w) / 5 - 0.5);
    expect(inked(png, x0 - 1, plotY + h - 3, x0 + 2, plotY + h)).toBe(true);
    expect(inked(png, x4 - 1, plotY, x4 + 2, plotY + 3)).toBe(true);
    // Between 2 and 4 the line is broken: no ink in the middle of the 2-to-NaN cell gap.
    const xGap = plotX + Math.round((3 * w) / 5);
    expect(inked(png, xGap, plotY + 1, xGap + 1, plotY + h - 1)).toBe(false);
    // The x ticks' labels below the plot.
    expect(inked(png, plotX, plotY + h + 1, plotX + w, plotY + h + 15)).toBe(true);
  });
});
