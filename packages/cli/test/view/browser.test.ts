/**
 * `lance-nd view` in a real headless Chromium (Debian's /usr/bin/chromium,
 * driven by playwright-core; no browser is downloaded): the demo table, the
 * value under the pointer, the colours of the screenshot, north up, the
 * time slider, the dims' ranges, the colour bar in a narrower window and the
 * filter box; a second table of two variables for the readout of the one
 * picked. Under CI=true a missing Chromium fails
 * the test; elsewhere it is skipped with the reason.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NdArray } from "@lance-nd/nd-arrow";
import { write } from "lance-nd";
import { PNG } from "pngjs";
import { chromium } from "playwright-core";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NAN_COLOR, colorIndex, viridis } from "../../src/plot/colormap.js";
import { colormap } from "../../src/view/colormaps.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { readBack, startViewer } from "./viewer.js";
import type { Viewer } from "./viewer.js";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const missing = existsSync(CHROMIUM)
  ? undefined
  : `browser tests skipped: ${CHROMIUM} not found (apt-get install chromium)`;
if (missing !== undefined && process.env.CI !== "true") console.warn(missing);

/** The demo grid: sst(time=12, lat=90, lon=180), latitudes ascending from the south. */
const ROWS = 90;
const COLS = 180;
const TIME = 5;

describe.skipIf(missing !== undefined && process.env.CI !== "true")("lance-nd view in Chromium", () => {
  let dir: string;
  let profile: string;
  let viewer: Viewer;
  let context: BrowserContext;
  let page: Page;
  let sst: Float32Array;
  /** The demo's coordinates: time (days since 2000-01-01), lat, lon. */
  let coords: { time: Float64Array; lat: Float32Array; lon: Float32Array };
  /** A second table: the demo's sst and sst_k = sst + 273.15 (units K). */
  let twoViewer: Viewer;
  let sstK: Float32Array;

  beforeAll(async () => {
    if (missing !== undefined) throw new Error(`CI=true: ${missing}`);
    ensureBuilt();
    dir = tempDir();
    expect(cli(["demo", "--dir", dir]).code).toBe(0);
    expect(cli(["demo", "--dir", dir]).code).toBe(0); // again: version 2 overwrites version 1 with the same data
    const table = join(dir, "ocean.lance");
    const demo = await readBack(table);
    sst = demo.get("sst")!.toArray() as Float32Array;
    coords = {
      time: demo.get("time")!.toArray() as Float64Array,
      lat: demo.get("lat")!.toArray() as Float32Array,
      lon: demo.get("lon")!.toArray() as Float32Array,
    };
    sstK = Float32Array.from(sst, (v) => v + 273.15);
    const two = join(dir, "two.lance");
    const kelvin = NdArray.from(sstK, { dims: { time: 12, lat: ROWS, lon: COLS }, attrs: { units: "K" } });
    await write(two, [demo.withArrays({ sst_k: kelvin })]);
    [viewer, twoViewer] = await Promise.all([startViewer(table), startViewer(two)]);
    profile = mkdtempSync(join(tmpdir(), "lance-nd-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 760 },
      timeout: 0,
    });
    // No time limit on a page's waits: a loaded machine makes them longer, never red.
    context.setDefaultTimeout(0);
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(viewer.url);
    await page.waitForSelector("#heatmap[data-isel='time=0']");
  });

  afterAll(async () => {
    await context?.close();
    await viewer?.stop();
    await twoViewer?.stop();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  /** The table's sst at (TIME, row, col). */
  const value = (row: number, col: number): number => sst[(TIME * ROWS + row) * COLS + col]!;

  /** The map's pixels on the page (`on`, default the demo's): the canvas without its border. */
  function mapBox(on: Page = page): Promise<{ x: number; y: number; width: number; height: number }> {
    return on.locator("#heatmap").evaluate((canvas) => {
      const box = canvas.getBoundingClientRect();
      return {
        x: box.x + canvas.clientLeft,
        y: box.y + canvas.clientTop,
        width: canvas.clientWidth,
        height: canvas.clientHeight,
      };
    });
  }

  /** The page position of the centre of cell (row, col), north up: row 0 (the southernmost) at the bottom. */
  async function cellCentre(
    row: number,
    col: number,
    box?: { x: number; y: number; width: number; height: number },
  ): Promise<{ x: number; y: number }> {
    box ??= await mapBox();
    return { x: box.x + ((col + 0.5) * box.width) / COLS, y: box.y + ((ROWS - 1 - row + 0.5) * box.height) / ROWS };
  }

  it("lists the table and the demo dataset with its dims", async () => {
    await expect.poll(() => page.textContent("#table-info")).toMatch(/formatlance-nd v1/);
    expect(await page.textContent("#table-info")).toContain("rows9");
    expect(await page.textContent("#table-info")).toContain("version2 of 2 kept");
    expect(await page.textContent("#datasets")).toContain("(no id)  (time=12, lat=90, lon=180; 9 rows)");
    // The range of sst over the whole dataset, from the table's values.
    let min = Infinity;
    let max = -Infinity;
    for (const v of sst) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const text = (v: number): string => String(Number(v.toPrecision(5)));
    expect(await page.textContent("#variables")).toContain(
      `sstFloat32 (time, lat, lon): ${text(min)} to ${text(max)} degC, stats column`,
    );
    expect(await page.textContent("#global-attrs")).toContain("CF-1.8");
  });

  it("picks sst, moves the time slider, and shows the table's value under the pointer", async () => {
    await page.selectOption("#variable", "sst");
    await page.locator("#slider-time").fill(String(TIME));
    await page.waitForSelector(`#heatmap[data-isel='time=${TIME}']`);
    // time[5] = 167 days since 2000-01-01, shown as its date (@lance-nd/cf).
    const date = new Date(Date.UTC(2000, 0, 1) + 167 * 86_400_000).toISOString().slice(0, 10);
    expect(date).toBe("2000-06-16");
    expect(await page.textContent("#sliders")).toContain(`time = ${date} [5/11]`);
    for (const [row, col] of [
      [40, 10],
      [70, 150],
      [3, 100],
    ] as const) {
      const { x, y } = await cellCentre(row, col);
      await page.mouse.move(x, y);
      const readout = page.locator("#readout");
      await expect.poll(() => readout.getAttribute("data-row")).toBe(String(row));
      expect(await readout.getAttribute("data-col")).toBe(String(col));
      expect(Number(await readout.getAttribute("data-value"))).toBe(value(row, col));
      expect(await readout.textContent()).toContain("time=2000-06-16");
    }
  });

  it("draws each cell in the colour map's colour for its value, land grey, north up", async () => {
    const slice = sst.subarray(TIME * ROWS * COLS, (TIME + 1) * ROWS * COLS);
    let min = Infinity;
    let max = -Infinity;
    for (const v of slice) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const shot = PNG.sync.read(await page.screenshot());
    const box = await mapBox();
    const pixel = async (row: number, col: number): Promise<number[]> => {
      const { x, y } = await cellCentre(row, col, box);
      const o = 4 * (Math.floor(y) * shot.width + Math.floor(x));
      return [shot.data[o]!, shot.data[o + 1]!, shot.data[o + 2]!];
    };
    const lut = viridis();
    const colour = (v: number): number[] => {
      const k = colorIndex(v, min, max);
      return k < 0 ? [...NAN_COLOR] : [lut[3 * k]!, lut[3 * k + 1]!, lut[3 * k + 2]!];
    };
    let water = 0;
    let land = 0;
    for (let row = 2; row < ROWS; row += 11) {
      for (let col = 3; col < COLS; col += 17) {
        expect(await pixel(row, col), `cell (${row}, ${col}) = ${value(row, col)}`).toEqual(colour(value(row, col)));
        if (Number.isNaN(value(row, col))) land++;
        else water++;
      }
    }
    expect(land).toBeGreaterThan(3);
    expect(water).toBeGreaterThan(30);
    // North up: the top row of the map is the northernmost latitude (row 89), the bottom row Antarctica (land, grey).
    const top = PNG.sync.read(await page.screenshot({ clip: { x: box.x, y: box.y, width: box.width, height: 1 } }));
    const topColours = Array.from({ length: COLS }, (_, col) => {
      const o = 4 * Math.floor(((col + 0.5) * box.width) / COLS);
      return [top.data[o]!, top.data[o + 1]!, top.data[o + 2]!];
    });
    expect(topColours).toEqual(Array.from({ length: COLS }, (_, col) => colour(value(ROWS - 1, col))));
    expect(await pixel(0, 90)).toEqual([...NAN_COLOR]);
    const { x, y } = await cellCentre(ROWS - 1, 0);
    await page.mouse.move(x, y);
    await expect.poll(() => page.textContent("#readout")).toMatch(/lat=89\b/);
  });

  it("a slider swept across every step ends on the last step's window, one request at a time", async () => {
    const windows: string[] = [];
    const listener = (request: { url(): string }): void => {
      if (request.url().includes("/api/window")) windows.push(new URL(request.url()).searchParams.get("isel")!);
    };
    page.on("request", listener);
    const slider = page.locator("#slider-time");
    await slider.focus();
    await page.keyboard.press("Home");
    for (let i = 0; i < 11; i++) await page.keyboard.press("ArrowRight");
    await page.waitForSelector("#heatmap[data-isel='time=11']");
    page.off("request", listener);
    expect(windows.at(-1)).toBe("time=11");
    expect(windows.length).toBeLessThanOrEqual(12);
    const [row, col] = [60, 20];
    const { x, y } = await cellCentre(row, col);
    await page.mouse.move(x, y);
    await expect.poll(() => page.locator("#readout").getAttribute("data-row")).toBe(String(row));
    expect(Number(await page.locator("#readout").getAttribute("data-value"))).toBe(sst[(11 * ROWS + row) * COLS + col]);
    // Back to the step the other tests look at.
    await slider.fill(String(TIME));
    await page.waitForSelector(`#heatmap[data-isel='time=${TIME}']`);
  });

  it("switches colour maps, and zooms around the pointer (wheel) and back (double-click)", async () => {
    const [row, col] = [45, 30];
    const { x, y } = await cellCentre(row, col);
    const canvas = page.locator("#heatmap");
    const min = Number(await canvas.getAttribute("data-min"));
    const max = Number(await canvas.getAttribute("data-max"));
    await page.selectOption("#colormap", "magma");
    const shot = PNG.sync.read(
      await page.screenshot({ clip: { x: Math.floor(x), y: Math.floor(y), width: 1, height: 1 } }),
    );
    const k = colorIndex(value(row, col), min, max);
    expect([...shot.data.subarray(0, 3)]).toEqual([...colormap("magma").subarray(3 * k, 3 * k + 3)]);
    await page.selectOption("#colormap", "viridis");

    const cellWidth = (await mapBox()).width / COLS;
    await page.mouse.move(x, y);
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100); // zoom in 1.25^6 = 3.8 times
    await page.mouse.move(x + 1, y); // the same cell stays under the pointer
    await expect.poll(() => page.locator("#readout").getAttribute("data-col")).toBe(String(col));
    await page.mouse.move(x + 2.2 * cellWidth, y); // 2.2 cells away at zoom 1: the next cell when zoomed
    await expect.poll(() => page.locator("#readout").getAttribute("data-col")).toBe(String(col + 1));
    expect(await page.locator("#readout").getAttribute("data-row")).toBe(String(row));
    await page.mouse.dblclick(x, y);
    await page.mouse.move(x + 2.2 * cellWidth, y);
    await expect.poll(() => page.locator("#readout").getAttribute("data-col")).toBe(String(col + 2));
  });

  it("reads an earlier version from the version picker (time travel)", async () => {
    expect(await page.locator("#version option").count()).toBe(2);
    expect(await page.textContent("#table-info")).toContain("version2 of 2 kept");
    const windows: string[] = [];
    const listener = (request: { url(): string }): void => {
      if (request.url().includes("/api/window")) windows.push(new URL(request.url()).searchParams.get("version")!);
    };
    page.on("request", listener);
    await page.selectOption("#version", "1");
    await expect.poll(() => page.textContent("#table-info")).toContain("version1 of 2 kept");
    await expect.poll(() => windows.at(-1)).toBe("1");
    page.off("request", listener);
    await page.selectOption("#version", "2");
    await expect.poll(() => page.textContent("#table-info")).toContain("version2 of 2 kept");
  });

  it("shows each dim's range in the dim controls: the slider's dates, the map's coordinates with their units", async () => {
    const date = (days: number): string =>
      new Date(Date.UTC(2000, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
    const number = (v: number): string => String(Number(v.toPrecision(6)));
    const range = (dim: string) => page.textContent(`#sliders .dim[data-dim='${dim}'] .range`);
    expect(await range("time")).toBe(`${date(coords.time[0]!)} – ${date(coords.time[11]!)}`);
    expect(await range("time")).toBe("2000-01-16 – 2000-12-16");
    expect(await range("lat")).toBe(`${number(coords.lat[0]!)} – ${number(coords.lat[ROWS - 1]!)} (degrees_north)`);
    expect(await range("lon")).toBe(`${number(coords.lon[0]!)} – ${number(coords.lon[COLS - 1]!)} (degrees_east)`);
    expect(await page.textContent("#sliders .dim[data-dim='lat']")).toContain("lat: the map's rows, 90 steps");
  });

  it("in a 1200 px wide window the colour bar and its labels lie inside the page, as tall as the map", async () => {
    await page.setViewportSize({ width: 1200, height: 760 });
    try {
      await expect.poll(() => page.locator("html").evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(1200);
      // The colour bar follows the map's new height once the page has laid itself out again.
      const barAndMap = async () => [
        await page.locator("#colorbar").evaluate((canvas) => canvas.clientHeight),
        (await mapBox()).height,
      ];
      await expect.poll(async () => new Set(await barAndMap()).size).toBe(1);
      const labels = await page.locator("#colorbar-labels div").evaluateAll((divs) =>
        divs.map((div) => {
          const box = div.getBoundingClientRect();
          return { text: div.textContent, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
        }),
      );
      expect(labels).toHaveLength(3);
      expect(labels[0]!.text).toMatch(/degC$/);
      const map = await mapBox();
      for (const label of labels) {
        expect(label.left, label.text!).toBeGreaterThan(map.x + map.width);
        expect(label.right, label.text!).toBeLessThanOrEqual(1200);
        expect(label.top, label.text!).toBeGreaterThanOrEqual(map.y - 1);
        expect(label.bottom, label.text!).toBeLessThanOrEqual(map.y + map.height + 1);
      }
      const [bar] = await barAndMap();
      expect(bar).toBe(map.height);
      // The narrower map still reads the cell under the pointer.
      const { x, y } = await cellCentre(20, 170, map);
      await page.mouse.move(x, y);
      await expect.poll(() => page.locator("#readout").getAttribute("data-col")).toBe("170");
      expect(await page.locator("#readout").getAttribute("data-row")).toBe("20");
    } finally {
      await page.setViewportSize({ width: 1280, height: 760 });
    }
  });

  it("the readout follows the variable picked: the second variable's value and units under a pointer that stays", async () => {
    const two = await context.newPage();
    try {
      await two.goto(twoViewer.url);
      await two.waitForSelector("#heatmap[data-isel='time=0']");
      expect(await two.inputValue("#variable")).toBe("sst");
      const [row, col] = [40, 10];
      const at = (time: number): number => (time * ROWS + row) * COLS + col;
      expect(Number.isNaN(sst[at(0)]!)).toBe(false);
      const { x, y } = await cellCentre(row, col, await mapBox(two));
      await two.mouse.move(x, y);
      const readout = two.locator("#readout");
      await expect.poll(() => readout.getAttribute("data-value")).toBe(String(sst[at(0)]));
      expect(await readout.textContent()).toMatch(/^sst = \S+ degC /);

      await two.selectOption("#variable", "sst_k");
      await expect.poll(() => readout.getAttribute("data-variable")).toBe("sst_k");
      expect(Number(await readout.getAttribute("data-value"))).toBe(sstK[at(0)]);
      expect(await readout.textContent()).toBe(
        `sst_k = ${Number(sstK[at(0)]!.toPrecision(6))} K   at time=2000-01-16, lat=${Number(coords.lat[row]!.toPrecision(6))}, lon=${Number(coords.lon[col]!.toPrecision(6))}`,
      );
      // A slider step redraws under the same pointer: the readout shows the new step's value.
      await two.locator("#slider-time").fill(String(TIME));
      await expect.poll(() => readout.getAttribute("data-value")).toBe(String(sstK[at(TIME)]));
      expect(await readout.textContent()).toContain("time=2000-06-16");
    } finally {
      await two.close();
    }
  });

  it("shows a wrong filter's error in place and narrows the list with a right one", async () => {
    await page.fill("#filter", "nope > 1");
    await page.press("#filter", "Enter");
    await expect.poll(() => page.textContent("#filter-error")).toMatch(/unknown column "nope"/);
    await page.fill("#filter", "`__stats__:sst`.max > 100");
    await page.press("#filter", "Enter");
    await expect.poll(() => page.locator("#datasets li:visible").count()).toBe(0);
    expect(await page.textContent("#filter-error")).toBe("");
    await page.fill("#filter", "`__stats__:sst`.max > 28");
    await page.press("#filter", "Enter");
    await expect.poll(() => page.locator("#datasets li:visible").count()).toBe(1);
  });
});
