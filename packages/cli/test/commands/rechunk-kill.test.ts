/**
 * A `lance-nd rechunk` SIGKILLed mid-write, again and again (lance-nd
 * README "Layouts", current or stale): each child is killed as soon as the
 * table's version advances (the first of its two commits: the new global
 * attributes of a first rechunk, or the new rows of a `--refresh` before
 * the old ones are deleted). After every kill the dataset reads as before,
 * a layout that is not whole is never taken nor listed as current, and
 * `check --deep` finds every current layout equal to its dataset.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, watch } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { check, col, dataset, layouts, open, write } from "lance-nd";
import { CLI, ensureBuilt, tempDir } from "./harness.js";

const ID = "d.nc";
const WHERE = col("__global_attrs__.id").eq(ID);
const [NT, NY, NX] = [32, 128, 128];

/** The manifests of the table: one per version. */
const manifests = (uri: string) => readdirSync(join(uri, "_versions")).filter((f) => f.endsWith(".manifest")).length;

/** Resolves when the table has more than `before` versions or the child has ended, whichever is first. */
function advanced(uri: string, before: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(join(uri, "_versions"));
    const done = () => {
      watcher.close();
      resolve();
    };
    watcher.on("change", () => {
      if (manifests(uri) > before) done();
    });
    child.once("exit", done);
    if (manifests(uri) > before || child.exitCode !== null) done();
  });
}

/** Runs `lance-nd rechunk ...args` in `cwd` and SIGKILLs it once the table's version advances; whether the kill stopped it. */
async function killedRechunk(cwd: string, uri: string, args: readonly string[]): Promise<boolean> {
  const before = manifests(uri);
  const child = spawn(process.execPath, [CLI, "rechunk", "t.lance", "--id", ID, ...args], {
    cwd,
    stdio: "ignore",
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_, signal) => resolve(signal)));
  await advanced(uri, before, child);
  child.kill("SIGKILL");
  return (await exited) === "SIGKILL";
}

/** The dataset's values as a plain read gives them, and which layout a point's time series reads. */
async function readState(uri: string): Promise<{ values: unknown[]; series: unknown[]; seriesLayout: string }> {
  const ds = await dataset(await open(uri), { where: WHERE });
  const point = ds.isel({ y: 70, x: 9 });
  return {
    values: Array.from((await ds.read()).get("v")!.toArray()),
    series: Array.from((await point.read()).get("v")!.toArray()),
    seriesLayout: await point.readLayout(["v"]),
  };
}

describe("rechunk killed mid-write", () => {
  let cwd: string;
  let uri: string;
  beforeAll(async () => {
    ensureBuilt();
    cwd = tempDir();
    uri = join(cwd, "t.lance");
    const v = NdArray.from(
      Float64Array.from({ length: NT * NY * NX }, (_, i) => Math.sin(i)),
      { dims: { t: NT, y: NY, x: NX } },
    );
    await write(uri, chunk(new NdRecordBatch({ v }, { id: ID }), { t: 1 }), { stats: true });
  });

  it("after each of several kills the dataset reads as before and only a whole layout is current", async () => {
    const before = await readState(uri);
    expect(before.seriesLayout).toBe("source");
    let stopped = 0;
    for (let kill = 0; kill < 4; kill++) {
      const existing = (await layouts(await open(uri), ID)).find((l) => l.name === "series");
      const args =
        existing === undefined ? ["--chunk", "t=all,y=16,x=16", "--name", "series"] : ["--name", "series", "--refresh"];
      if (await killedRechunk(cwd, uri, args)) stopped++;

      const after = await readState(uri);
      expect(after.values).toEqual(before.values);
      expect(after.series).toEqual(before.series);
      const series = (await layouts(await open(uri), ID)).find((l) => l.name === "series");
      const current = series !== undefined && series.stale === null;
      if (current) expect(series.rows).toBe((NY / 16) * (NX / 16));
      expect(after.seriesLayout).toBe(current ? "series" : "source");
      const report = await check(uri, { deep: true });
      expect(report.layoutMismatches).toEqual([]);
      expect(report.ok).toBe(true);
    }
    expect(stopped).toBeGreaterThan(0);

    // A rechunk that runs to its end makes the layout current again, and reads take it.
    const last = await layouts(await open(uri), ID);
    const redo = last.some((l) => l.name === "series")
      ? ["--name", "series", "--refresh"]
      : ["--chunk", "t=all,y=16,x=16", "--name", "series"];
    const done = spawn(process.execPath, [CLI, "rechunk", "t.lance", "--id", ID, ...redo], { cwd, stdio: "ignore" });
    expect(await new Promise((resolve) => done.once("exit", resolve))).toBe(0);
    const final = await readState(uri);
    expect(final).toEqual({ ...before, seriesLayout: "series" });
  });
});
