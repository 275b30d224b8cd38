import { loggedLines, quickStartAndReadme } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import * as stats from "../src/index.js";

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
    const lines = await loggedLines(() => import("../examples/quick-start.js"));
    expect(lines).toEqual([
      '{"min":275,"max":301.25}',
      '"min is U+FFFF:" true "max:" "😀"',
      '"__stats__:sst" "Struct<{min:Float32, max:Float32}>"',
      '[{"min":275,"max":301.25},null,{"min":null,"max":null}]',
      'true "sst"',
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const { readme, example } = quickStartAndReadme(import.meta.url, "import {");
    expect(readme).toContain(example);
  });
});
