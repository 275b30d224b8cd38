/**
 * The viewer's window limit (CLI README, "view"): a 6000 x 6000 float32
 * variable (137 MiB, 18 rows) is refused whole with a 400 naming the step
 * that fits; asked with that step it comes every n-th cell, equal to the
 * source's values there; and the server's peak memory (VmHWM of its
 * process) stays under 512 MiB while it answers four such windows at once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { decode } from "@lance-nd/nd-arrow";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_WINDOW_CELLS, windowStep } from "../../src/view/window-limit.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { send, startViewer } from "./viewer.js";
import type { Viewer } from "./viewer.js";

const SIZE = 6000;
const skip =
  pythonSkipReason("window limit test", ["numpy", "netCDF4"], "apt-get install python3-netcdf4") !== undefined;

/** The peak resident memory of process `pid` in MiB (VmHWM). */
function peakRssMiB(pid: number): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))!;
  return Number(line[1]) / 1024;
}

describe.skipIf(skip)("view: a window is bounded", () => {
  let viewer: Viewer;
  const api = (query: string) => send(viewer, `/api/window?token=${viewer.token}&dataset=big.nc&variable=v&${query}`);

  beforeAll(async () => {
    ensureBuilt();
    const dir = tempDir();
    const file = join(dir, "big.nc");
    // v[y, x] = y + x, exact in float32.
    const script = [
      "import sys, netCDF4, numpy as np",
      "d = netCDF4.Dataset(sys.argv[1], 'w', format='NETCDF3_64BIT_OFFSET')",
      `d.createDimension('y', ${SIZE}); d.createDimension('x', ${SIZE})`,
      "v = d.createVariable('v', 'f4', ('y', 'x'))",
      `v[:] = np.arange(${SIZE}, dtype='f4')[:, None] + np.arange(${SIZE}, dtype='f4')[None, :]`,
      "d.close()",
    ].join("\n");
    runPython(["-c", script, file]);
    expect(cli(["import", file, join(dir, "big.lance")]).code).toBe(0);
    viewer = await startViewer(join(dir, "big.lance"));
  });
  afterAll(() => viewer?.stop());

  it("the whole slice is a 400 naming the limit and the step that fits; a bad step is a 400", async () => {
    const step = windowStep(SIZE, SIZE);
    expect(step).toBe(6);
    const reply = await api("");
    expect(reply.status).toBe(400);
    expect(reply.json().error?.message).toBe(
      `variable "v": a window of y=${SIZE} x x=${SIZE} at step=1 holds ${SIZE * SIZE} cells, more than the viewer's limit of ${MAX_WINDOW_CELLS}; ask with step=${step} (the page does)`,
    );
    expect((await api("step=5")).status).toBe(400);
    for (const bad of ["0", "-1", "two"]) {
      const refused = await api(`step=${bad}`);
      expect([refused.status, refused.json().error?.message]).toEqual([400, `step=${bad}: expected an integer >= 1`]);
    }
  });

  it("four windows at the largest step that fits, at once: every n-th cell of the source, the server under 512 MiB", async () => {
    const step = windowStep(SIZE, SIZE);
    const replies = await Promise.all([0, 1, 2, 3].map(() => api(`step=${step}`)));
    const cells = Math.ceil(SIZE / step);
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      const [window] = tableFromIPC(reply.body).batches.flatMap((rb) => decode(rb));
      const v = window!.get("v")!;
      expect(v.dims).toEqual([
        { name: "y", size: cells },
        { name: "x", size: cells },
      ]);
      const values = v.values.toArray() as Float64Array;
      for (const [r, c] of [
        [0, 0],
        [1, 2],
        [cells - 1, cells - 1],
        [517, 33],
      ] as const) {
        expect(values[r * cells + c], `(${r}, ${c})`).toBe(r * step + c * step);
      }
    }
    expect(peakRssMiB(viewer.pid)).toBeLessThan(512);
  });
});
