/**
 * `lance-nd serve --zarr-version 3 --codec zlib` (gzip chunks) read by zarrita (FetchStore): in Node,
 * and in Debian's Chromium (playwright-core, as the viewer's browser test)
 * from a page of another origin allowed by `--cors`. Both read a region
 * across chunks equal to the file's raw values (xarray without CF decoding).
 * Under CI=true a missing Chromium or Python module fails.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LocalServer, listenLocally, pythonSkipReason, runPython, skipReason } from "@lance-nd/test-helpers";
import { chromium } from "playwright-core";
import { build } from "tsup";
import * as zarr from "zarrita";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { startServe } from "./served.js";
import type { Served } from "./served.js";

const CLIENT = join(import.meta.dirname, "xarray_client.py");
const CHROMIUM = "/usr/bin/chromium";
/** zarrita's ESM entry in the workspace's root node_modules (a root devDependency). */
const ZARRITA = join(import.meta.dirname, "..", "..", "..", "..", "node_modules", "zarrita", "dist", "src", "index.js");
const skip = pythonSkipReason(
  "lance-nd serve's zarrita tests (xarray reads the source)",
  ["xarray", "netCDF4"],
  "apt-get install python3-xarray python3-netcdf4",
);
const noChromium = skipReason(
  existsSync(CHROMIUM) ? undefined : `serve's browser test skipped: ${CHROMIUM} not found (apt-get install chromium)`,
);
/** The region read: temp[1:7, 2:9, 3:12] of (time 8, lat 10, lon 12), across the time=2 chunks. */
const REGION = ["1:7", "2:9", "3:12"];

describe.skipIf(skip !== undefined)("lance-nd serve --zarr-version 3 --codec zlib read by zarrita", () => {
  let dir: string;
  let served: Served;
  let pages: LocalServer;
  let pageOrigin: string;
  let expected: { shape: number[]; values: number[] };

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir();
    const file = join(dir, "cf.nc");
    runPython([CLIENT, "make-cf", file, "3"]);
    expected = JSON.parse(runPython([CLIENT, "region", file, "temp", ...REGION]));
    const table = join(dir, "v3.lance");
    const run = cli(["import", file, table, "--id", "cf", "--chunk", "time=2", "--cf", "raw"]);
    expect(run.code, run.stderr).toBe(0);
    // The browser's page comes from another origin, which --cors lets read the answers.
    pages = await pageServer(dir);
    pageOrigin = pages.origin;
    served = await startServe(table, ["--zarr-version", "3", "--codec", "zlib", "--cors", pageOrigin]);
  });

  afterAll(async () => {
    await served?.stop();
    await pages?.stop();
  });

  it("in Node: the group's array (gzip chunks) and a region across chunks equal the file", async () => {
    const root = zarr.root(new zarr.FetchStore(`${served.url}cf`));
    const temp = await zarr.open.v3(root.resolve("temp"), { kind: "array" });
    expect(temp.shape).toEqual([8, 10, 12]);
    const metadata = (await (await fetch(`${served.url}cf/temp/zarr.json`)).json()) as { codecs: { name: string }[] };
    expect(metadata.codecs.map((c) => c.name)).toContain("gzip");
    const region = await zarr.get(
      temp,
      REGION.map((r) => zarr.slice(...(r.split(":").map(Number) as [number, number]))),
    );
    expect(region.shape).toEqual(expected.shape);
    expect(Array.from(region.data as Float32Array)).toEqual(expected.values);
  });

  it.skipIf(noChromium !== undefined)("in Chromium, from a page of the --cors origin: the same region", async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`CI=true: ${CHROMIUM} not found`);
    const profile = mkdtempSync(join(tmpdir(), "lance-nd-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      timeout: 0,
    });
    // No time limit on the page's waits: a loaded machine makes them longer, never red.
    context.setDefaultTimeout(0);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${pageOrigin}/`);
      const region = await page.evaluate(
        async ({ url, ranges }) => {
          const z = (globalThis as unknown as { zarr: typeof zarr }).zarr;
          const temp = await z.open.v3(z.root(new z.FetchStore(url)).resolve("temp"), { kind: "array" });
          const got = await z.get(
            temp,
            ranges.map((r) => z.slice(...(r.split(":").map(Number) as [number, number]))),
          );
          return { shape: got.shape, values: Array.from(got.data as Float32Array) };
        },
        { url: `${served.url}cf`, ranges: REGION },
      );
      expect(region).toEqual(expected);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

/** A server of one page that loads zarrita, bundled for the browser (global `zarr`), on a free port. */
async function pageServer(dir: string): Promise<LocalServer> {
  const out = join(dir, "page");
  await build({
    entry: { zarrita: ZARRITA },
    format: ["iife"],
    globalName: "zarr",
    platform: "browser",
    target: "es2022",
    outDir: out,
    noExternal: [/.*/],
    config: false,
    silent: true,
  });
  const script = readFileSync(join(out, "zarrita.global.js"));
  const server = createServer((request, response) => {
    const html = request.url === "/";
    response.writeHead(200, { "content-type": html ? "text/html" : "text/javascript" });
    response.end(html ? '<!doctype html><script src="/zarrita.js"></script>' : script);
  });
  return listenLocally(server);
}
