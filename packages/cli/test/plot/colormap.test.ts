/**
 * The colour maps `plot` and `view` draw with, against matplotlib (the maps'
 * home): each table's entry i is the colour matplotlib gives i / 255.
 */
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { colormapTable, viridis } from "../../src/plot/colormap.js";
import { COLORMAP_NAMES, colormap } from "../../src/view/colormaps.js";

const reason = pythonSkipReason("matplotlib oracle", ["matplotlib"], "apt-get install python3-matplotlib");

/** matplotlib's colours of each map at 0, 1/255, ..., 1, each channel rounded to 0..255. */
function matplotlibColors(names: readonly string[]): Record<string, number[]> {
  const script = [
    "import json, sys, matplotlib, numpy as np",
    "x = np.arange(256) / 255",
    "out = {n: np.round(matplotlib.colormaps[n](x)[:, :3] * 255).astype(int).ravel().tolist() for n in sys.argv[1:]}",
    "print(json.dumps(out))",
  ].join("\n");
  return JSON.parse(runPython(["-c", script, ...names])) as Record<string, number[]>;
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
