// An allowed import of a source that declares far more than it holds
// (CLI README, "Declared sizes"; lance-nd README, "Guarantees"): a netCDF-4
// variable of 10^5 x 10^5 float32 (37 GiB declared, under the 256 GiB
// limit) that netCDF4-python created and never wrote, so every chunk reads
// as fill. The built `lance-nd import` (the wrapper and its child, as a user
// starts it) writes its rows of fill; once 20 of its adds have landed the
// held PID gets SIGINT, which stops it promptly: it exits 130 saying so,
// the table it created is gone, and the import's peak resident memory
// (VmHWM of the child) stayed under the 512 MiB import bound.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { childPids, killCliProcesses, manifestCount, startCli, waitUntil } from "./helpers/import-runs.js";

const skip = pythonSkipReason("netCDF4 writer", ["netCDF4", "numpy"], "apt-get install python3-netcdf4");
const ADDS = 20;
const BOUND_MIB = 512;
const dir = mkdtempSync(join(tmpdir(), "lance-nd-import-declared-"));
const file = join(dir, "declared.nc");

beforeAll(() => {
  requireBuiltCli();
  if (skip !== undefined) return;
  runPython([
    "-c",
    `import sys, netCDF4
with netCDF4.Dataset(sys.argv[1], "w") as d:
    d.createDimension("y", 100000); d.createDimension("x", 100000)
    d.createVariable("v", "f4", ("y", "x"), chunksizes=(1000, 1000))`,
    file,
  ]);
});
afterAll(() => {
  killCliProcesses();
  rmSync(dir, { recursive: true, force: true });
});

/** Peak resident memory of process `pid` in MiB (Linux VmHWM). */
function peakMib(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

describe.skipIf(skip !== undefined)(`a declared 37 GiB never written${skip ? ` (${skip})` : ""}`, () => {
  it(`SIGINT after ${ADDS} adds of fill: exit 130, no table left, peak RSS under ${BOUND_MIB} MiB`, async () => {
    const uri = join(dir, "declared.lance");
    const run = startCli(["import", file, uri]);
    const reached = await waitUntil(() => manifestCount(uri) >= ADDS, run.exited);
    expect(reached, "the import ended before its adds landed").toBe(true);
    const [importer] = childPids(run.process.pid!);
    expect(importer, "the wrapper's import child").toBeDefined();
    const peak = peakMib(importer!);
    run.process.kill("SIGINT");
    const end = await run.exited;
    expect(end.code, end.stderr).toBe(130);
    expect(end.stderr).toMatch(/interrupted by SIGINT: stopped, no table was left/);
    expect(manifestCount(uri)).toBe(0);
    expect(peak).toBeLessThan(BOUND_MIB);
    count("importStops");
  });
});
