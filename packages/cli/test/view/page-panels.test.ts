/**
 * The viewer's panels in a real headless Chromium (Debian's
 * /usr/bin/chromium, playwright-core): a table of 1-D variables only
 * (GSHHG's binned coastlines, gmt-gshhg-low) says why its map is empty; a
 * time coordinate's range shows as dates in the variables panel, as the
 * slider shows it; a long variable name does not push the type and range
 * out of the panel. Under CI=true a missing Chromium or file fails the test.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { skipReason } from "@lance-nd/test-helpers";
import { write } from "lance-nd";
import { chromium } from "playwright-core";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { startViewer } from "./viewer.js";
import type { Viewer } from "./viewer.js";

const CHROMIUM = "/usr/bin/chromium";
const GSHHG = "/usr/share/gmt-gshhg/binned_GSHHS_c.nc";
const skip = skipReason(
  !existsSync(CHROMIUM)
    ? `${CHROMIUM} not found (apt-get install chromium)`
    : !existsSync(GSHHG)
      ? `${GSHHG} is missing (apt-get install gmt-gshhg-low)`
      : undefined,
);
const LONG = "sea_surface_temperature_anomaly_relative_to_the_1981_2010_climatology";

describe.skipIf(skip !== undefined)(`viewer panels in Chromium${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  let profile: string;
  let context: BrowserContext;
  const viewers: Viewer[] = [];

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir();
    expect(cli(["import", GSHHG, "gshhg.lance"], dir).code).toBe(0);
    // v(time, y, x) with a long name, time in days since 2000-01-01 at noon.
    const n = 4;
    const batch = new NdRecordBatch({
      [LONG]: NdArray.from(new Float32Array(n * 3 * 5), { dims: { time: n, y: 3, x: 5 }, attrs: { units: "K" } }),
      time: NdArray.from(Float64Array.of(366.5, 367.5, 368.5, 369.5), {
        dims: { time: n },
        attrs: { units: "days since 2000-01-01" },
      }),
    });
    await write(join(dir, "long.lance"), [batch]);
    viewers.push(await startViewer(join(dir, "gshhg.lance")), await startViewer(join(dir, "long.lance")));
    profile = mkdtempSync(join(tmpdir(), "lance-nd-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      viewport: { width: 1280, height: 760 },
      timeout: 0,
    });
    // No time limit on a page's waits: a loaded machine makes them longer, never red.
    context.setDefaultTimeout(0);
  });

  afterAll(async () => {
    await context?.close();
    await Promise.all(viewers.map((v) => v.stop()));
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("a table of 1-D variables says why the map is empty and how to draw them", async () => {
    const page = await context.newPage();
    await page.goto(viewers[0]!.url);
    // The page says it once it has read the dataset: wait for that, however loaded the machine is.
    await page.locator("#view-error", { hasText: /\S/ }).waitFor({ timeout: 0 });
    expect(await page.textContent("#view-error")).toMatch(
      /^nothing to draw as a map: no variable of this dataset has two dims of size > 1; draw one of one dim \([^)]*Id_of_parent_polygons[^)]*\) as a line with lance-nd plot <table> <variable>$/,
    );
    expect(await page.locator("#variable option").count()).toBe(0);
    await page.close();
  });

  it("a time coordinate's range is dates in the variables panel; a long name leaves the range inside the panel", async () => {
    const page = await context.newPage();
    await page.goto(viewers[1]!.url);
    await page.waitForSelector("#heatmap[data-isel='time=0']");
    const variables = page.locator("#variables");
    expect(await variables.textContent()).toContain("time");
    expect(await variables.textContent()).toContain("2001-01-01T12:00:00Z to 2001-01-04T12:00:00Z");
    expect(await variables.textContent()).not.toContain("days since");
    const panel = await variables.boundingBox();
    const cells = await page.locator("#variables td").evaluateAll((tds) =>
      tds.map((td) => {
        const box = td.getBoundingClientRect();
        return { left: box.left, right: box.right, text: td.textContent };
      }),
    );
    for (const cell of cells) {
      expect(cell.right, cell.text ?? "").toBeLessThanOrEqual(panel!.x + panel!.width + 1);
      expect(cell.left - panel!.x, cell.text ?? "").toBeLessThan(panel!.width * 0.5);
    }
    await page.close();
  });
});
