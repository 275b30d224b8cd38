/**
 * The colour maps `plot` and `view` draw with, against matplotlib (the maps'
 * home): each table's entry i is the colour matplotlib gives i / 255.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { colormapTable, viridis } from "../../src/plot/colormap.js";
import { COLORMAP_NAMES, colormap } from "../../src/view/colormaps.js";

const PYTHON = "/usr/bin/python3";

/** Why matplotlib cannot run here (then the suite skips, or fails under CI=true), or undefined. */
function missing(): string | undefined {
  const probe = spawnSync(PYTHON, ["-c", "import matplotlib"], { encoding: "utf8" });
  return probe.status === 0 ? undefined : `${PYTHON} with matplotlib not found (apt-get install python3-matplotlib)`;
}

const reason = missing();
if (reason !== undefined && process.env.CI === "true")
  throw new Error(`the matplotlib oracle must run in CI: ${reason}`);
if (reason !== undefined) console.warn(`matplotlib oracle skipped: ${reason}`);

/** matplotlib's colours of each map at 0, 1/255, ..., 1, each channel rounded to 0..255. */
function matplotlibColors(names: readonly string[]): Record<string, number[]> {
  const script = [
    "import json, sys, matplotlib, numpy as np",
    "x = np.arange(256) / 255",
    "out = {n: np.round(matplotlib.colormaps[n](x)[:, :3] * 255).astype(int).ravel().tolist() for n in sys.argv[1:]}",
    "print(json.dumps(out))",
  ].join("\n");
  const run = spawnSync(PYTHON, ["-c", script, ...names], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`matplotlib failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, number[]>;
}

describe.skipIf(reason !== undefined)("colour maps against matplotlib", () => {
  it("viridis, magma, inferno, plasma and cividis are matplotlib's tables, entry by entry", () => {
    const expected = matplotlibColors(COLORMAP_NAMES);
    for (const name of COLORMAP_NAMES) {
      expect(Array.from(colormap(name)), name).toEqual(expected[name]);
    }
    expect(viridis()).toBe(colormap("viridis")); // plot's heatmap and the viewer's default are one table
  });
});

describe("colour map names", () => {
  it("an unknown name is a RangeError naming the maps there are", () => {
    expect(() => colormapTable("jet")).toThrow(/no colour map "jet" \(viridis, magma, inferno, plasma, cividis\)/);
  });
});
