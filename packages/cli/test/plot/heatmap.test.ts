import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { isCliError } from "../../src/errors.js";
import { NAN_COLOR, viridis } from "../../src/plot/colormap.js";
import { MIN_PLOT_WIDTH, formatNumber, renderHeatmap } from "../../src/plot/heatmap.js";

const PURPLE = [68, 1, 84];
const YELLOW = [253, 231, 37];

// Layout constants of the renderer: the plot starts at (12, top).
const MARGIN = 12;
const TOP_WITH_TEXT = 12 + 14 + 12;

function pixel(png: PNG, x: number, y: number): number[] {
  const o = 4 * (y * png.width + x);
  return Array.from(png.data.subarray(o, o + 3));
}

/** The pixel in the middle of cell (row, col) of a plot drawn with `scale`. */
function cell(png: PNG, row: number, col: number, scale: number, top: number): number[] {
  return pixel(png, MARGIN + col * scale + scale / 2, top + row * scale + scale / 2);
}

describe("viridis", () => {
  it("has 256 colours from dark purple to yellow", () => {
    const lut = viridis();
    expect(lut.length).toBe(768);
    expect(Array.from(lut.subarray(0, 3))).toEqual(PURPLE);
    expect(Array.from(lut.subarray(765, 768))).toEqual(YELLOW);
  });

  it("gets lighter from end to end (perceptual order; 8-bit rounding allows ties between neighbours)", () => {
    const lut = viridis();
    const luma = (i: number): number => 0.2126 * lut[3 * i]! + 0.7152 * lut[3 * i + 1]! + 0.0722 * lut[3 * i + 2]!;
    for (let i = 8; i < 256; i++) expect(luma(i)).toBeGreaterThan(luma(i - 8));
  });

  it("never uses the NaN colour", () => {
    const lut = viridis();
    for (let i = 0; i < 256; i++) expect(Array.from(lut.subarray(3 * i, 3 * i + 3))).not.toEqual([...NAN_COLOR]);
  });
});

describe("renderHeatmap", () => {
  it("decodes as a PNG scaled to at least MIN_PLOT_WIDTH with whole-pixel cells", () => {
    const png = PNG.sync.read(renderHeatmap(Float32Array.of(0, 1, 2, 3, 4, 5), 3, 2));
    const scale = Math.ceil(MIN_PLOT_WIDTH / 3);
    expect(png.width).toBeGreaterThanOrEqual(3 * scale + 2 * MARGIN);
    expect(png.height).toBe(MARGIN + 2 * scale + MARGIN);
  });

  it("the min cell is the first viridis colour, the max cell the last, NaN and nulls grey", () => {
    const values = Float64Array.of(0, 1, 2, Number.NaN, 4, 5);
    const png = PNG.sync.read(renderHeatmap(values, 3, 2, { nullMask: [0, 1, 0, 0, 0, 0], title: "t" }));
    const scale = 120;
    expect(cell(png, 0, 0, scale, TOP_WITH_TEXT)).toEqual(PURPLE);
    expect(cell(png, 1, 2, scale, TOP_WITH_TEXT)).toEqual(YELLOW);
    expect(cell(png, 1, 0, scale, TOP_WITH_TEXT)).toEqual([...NAN_COLOR]);
    expect(cell(png, 0, 1, scale, TOP_WITH_TEXT)).toEqual([...NAN_COLOR]);
  });

  it("origin lower draws row 0 at the bottom (north up for ascending latitudes)", () => {
    const png = PNG.sync.read(renderHeatmap(Int16Array.of(0, 0, 9, 9), 2, 2, { origin: "lower" }));
    expect(cell(png, 0, 0, 180, MARGIN)).toEqual(YELLOW);
    expect(cell(png, 1, 0, 180, MARGIN)).toEqual(PURPLE);
  });

  it("min and max options clamp values outside the range", () => {
    const png = PNG.sync.read(renderHeatmap(Float32Array.of(-100, 100), 2, 1, { min: 0, max: 1 }));
    expect(cell(png, 0, 0, 180, MARGIN)).toEqual(PURPLE);
    expect(cell(png, 0, 1, 180, MARGIN)).toEqual(YELLOW);
  });

  it("the colour bar runs from yellow at the top to purple at the bottom", () => {
    const png = PNG.sync.read(renderHeatmap(Float32Array.of(1, 2), 2, 1));
    const barX = MARGIN + 360 + 14 + 11;
    expect(pixel(png, barX, MARGIN)).toEqual(YELLOW);
    expect(pixel(png, barX, MARGIN + 179)).toEqual(PURPLE);
  });

  it("all-NaN and constant slices still render (grey, and the middle colour)", () => {
    const nan = PNG.sync.read(renderHeatmap(Float32Array.of(Number.NaN, Number.NaN), 2, 1));
    expect(cell(nan, 0, 0, 180, MARGIN)).toEqual([...NAN_COLOR]);
    const flat = PNG.sync.read(renderHeatmap(Float32Array.of(7, 7), 2, 1));
    expect(cell(flat, 0, 0, 180, MARGIN)).toEqual(Array.from(viridis().subarray(3 * 128, 3 * 129)));
  });

  it("BigInt values plot like numbers", () => {
    const png = PNG.sync.read(renderHeatmap(BigInt64Array.of(1n, 3n), 2, 1));
    expect(cell(png, 0, 1, 180, MARGIN)).toEqual(YELLOW);
  });

  it("values that do not fill width x height are InvalidArgument", () => {
    const err = (() => {
      try {
        renderHeatmap(new Float32Array(5), 3, 2);
      } catch (e) {
        return e;
      }
    })();
    expect(isCliError(err, "InvalidArgument")).toBe(true);
  });

  it("labels: 4 significant digits, exponents for very large and small values", () => {
    expect(formatNumber(29.93456)).toBe("29.93");
    expect(formatNumber(-1.8)).toBe("-1.8");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(1.5e7)).toBe("1.50e+7");
    expect(formatNumber(0.00012)).toBe("1.20e-4");
    expect(formatNumber(Number.NaN)).toBe("nan");
  });
});
