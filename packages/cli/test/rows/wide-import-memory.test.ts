/**
 * The memory of an import of many small variables (CLI README, "Rows of an
 * import"; lance-nd SDK-NOTES.md, section 28): Debian's gmt-dcw
 * `dcw-gmt.nc` (1,046 variables on 523 dims, a table of 2,093 columns) is
 * imported in rows of at most the row budget, and the importer's peak RSS,
 * which its own process reports at exit through a preload module, stays
 * under the bound.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skipReason } from "@lance-nd/test-helpers";
import { open, scan } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ensureBuilt, tempDir } from "../commands/harness.js";

const DCW = "/usr/share/gmt-dcw/dcw-gmt.nc";
const skip = skipReason(existsSync(DCW) ? undefined : `${DCW} is missing (apt-get install gmt-dcw)`);
/**
 * The peak RSS of the importer, in MiB: measured 654-670 (lance-nd
 * SDK-NOTES.md, section 28), 819-886 when appends wrote every column; the
 * 512 MiB of smaller files (README, "Memory of an import") is not reached.
 */
const PEAK_BOUND_MIB = 768;
/** The default `--row-size`: the bytes of values a row holds at most (its attributes and dims come on top). */
const ROW_BUDGET = 2 ** 20;

/** A preload that prints "[peak] <MiB>" with its process's peak RSS to stderr at exit. */
function writePreload(dir: string): string {
  const preload = join(dir, "peak.mjs");
  writeFileSync(
    preload,
    `process.on("exit", () => process.stderr.write("[peak] " + process.resourceUsage().maxRSS / 1024 + "\\n"));\n`,
  );
  return preload;
}

describe.skipIf(skip !== undefined)(`import memory of Debian's dcw-gmt.nc${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`imports in rows of at most 1 MiB with a peak RSS under ${PEAK_BOUND_MIB} MiB`, async () => {
    const table = join(dir, "dcw.lance");
    const run = spawnSync(process.execPath, ["--import", writePreload(dir), CLI, "import", DCW, table, "--json"], {
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const peaks = run.stderr
      .split("\n")
      .filter((line) => line.startsWith("[peak] "))
      .map((line) => Number(line.slice("[peak] ".length)));
    // The executable and the importer it runs (README, "Memory of an import"): the larger is the importer.
    expect(peaks.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...peaks)).toBeLessThan(PEAK_BOUND_MIB);

    let rows = 0;
    const variables = new Set<string>();
    for await (const row of scan(await open(table))) {
      rows++;
      const arrays = row.arrays();
      for (const [name] of arrays) variables.add(name);
      expect(arrays.reduce((n, [, array]) => n + array.values.byteLength, 0)).toBeLessThanOrEqual(ROW_BUDGET);
    }
    expect(rows).toBeGreaterThan(60);
    expect(variables.size).toBe(1046);
  });
});
