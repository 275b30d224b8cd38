import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

beforeAll(ensureBuilt);

describe("demo", () => {
  it("writes the table and the PNG in the current folder and says what it did in a few lines", () => {
    const cwd = tempDir();
    const run = cli(["demo"], cwd);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(run.stdout).toMatch(
      /^write\s+lance-nd-demo\/ocean\.lance: 9 rows \(chunks of time=4, lat=30\), version \d+/m,
    );
    expect(run.stdout).toMatch(/^query\s+project \[sst\] where `__stats__:sst`\.`max` > 28: [1-8] of 9 rows matched/m);
    expect(run.stdout).toMatch(
      /^plot\s+sst {2}time=0 \(2000-01-16T00:00:00Z\) \(lat x lon, .*\) -> lance-nd-demo\/sst\.png$/m,
    );
    const png = PNG.sync.read(readFileSync(join(cwd, "lance-nd-demo", "sst.png")));
    expect(png.width).toBeGreaterThanOrEqual(360);
  });

  it("runs again over its own table (overwrite) and reports as JSON; a small dataset, one commit a run, stats prune rows", () => {
    const cwd = tempDir();
    type Summary = {
      dataset: { rawBytes: number };
      write: { rows: number; version: number; versions: number; bytes: number };
      query: { matched: number; of: number; min: number; max: number };
    };
    const first = cli(["demo", "--dir", "out", "--json"], cwd);
    expect(first.code).toBe(0);
    // Quick on any machine because it is small: under 1 MiB of values, written in one commit.
    const firstSummary = JSON.parse(first.stdout) as Summary;
    expect(firstSummary.dataset.rawBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(firstSummary.write.bytes).toBeLessThan(firstSummary.dataset.rawBytes);
    expect(firstSummary.write.versions).toBe(1);
    expect(firstSummary.query.matched).toBeLessThan(firstSummary.query.of);
    const run = cli(["demo", "--dir", "out", "--json"], cwd);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary.write.rows).toBe(9);
    expect(summary.write.version).toBeGreaterThan(1);
    expect(summary.query.max).toBeGreaterThan(28);
    expect(summary.query.min).toBeGreaterThanOrEqual(-1.8);
  });
});
