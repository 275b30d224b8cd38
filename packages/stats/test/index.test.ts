import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as stats from "../src/index.js";

afterEach(() => vi.restoreAllMocks());

describe("@lance-nd/stats public API", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(stats).sort()).toEqual([
      "STATS_PREFIX",
      "StatsError",
      "buildStatsColumn",
      "computeStats",
      "hasStats",
      "isStatsColumn",
      "isStatsError",
      "statsColumnName",
      "statsField",
      "statsType",
      "statsVariable",
    ]);
  });

  it("the quick-start example runs and prints the stats", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation(
      (...args: unknown[]) => void lines.push(args.map((a) => JSON.stringify(a)).join(" ")),
    );
    await import("../examples/quick-start.js");
    expect(lines).toEqual([
      '{"min":275,"max":301.25}',
      '"min is U+FFFF:" true "max:" "😀"',
      '"__stats__:sst" "Struct<{min:Float32, max:Float32}>"',
      '[{"min":275,"max":301.25},null,{"min":null,"max":null}]',
      'true "sst"',
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
    const example = read("../examples/quick-start.ts");
    expect(read("../README.md")).toContain(example.slice(example.indexOf("import {")).trim());
  });
});
