import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STATS_PREFIX, isStatsColumn, isStatsError, statsColumnName, statsVariable } from "../src/index.js";

describe("stats column names (FORMAT.md 4.7)", () => {
  it("the stats column of a variable is __stats__:<variable>", () => {
    expect(STATS_PREFIX).toBe("__stats__:");
    expect(statsColumnName("sst")).toBe("__stats__:sst");
  });

  it("the variable is the part after the first ':', so it can hold ':' itself", () => {
    expect(statsColumnName("a:b")).toBe("__stats__:a:b");
    expect(statsVariable("__stats__:a:b")).toBe("a:b");
    expect(statsVariable("__stats__::")).toBe(":");
  });

  it("a name that is not __stats__:<variable> has no variable", () => {
    expect(statsVariable("sst")).toBeNull();
    expect(statsVariable("__stats__sst")).toBeNull();
    expect(statsVariable("__stats__")).toBeNull();
    expect(statsVariable("__stats__:")).toBeNull();
    expect(statsVariable("x__stats__:sst")).toBeNull();
  });

  it("each name that starts with __stats__ is reserved", () => {
    expect(isStatsColumn("__stats__:sst")).toBe(true);
    expect(isStatsColumn("__stats__")).toBe(true);
    expect(isStatsColumn("__stats__sst")).toBe(true);
    expect(isStatsColumn("__stats_")).toBe(false);
    expect(isStatsColumn("sst")).toBe(false);
    expect(isStatsColumn("__global_attrs__")).toBe(false);
  });

  it("an empty variable fails with InvalidName", () => {
    expect.assertions(1);
    try {
      statsColumnName("");
    } catch (err) {
      expect(isStatsError(err, "InvalidName")).toBe(true);
    }
  });

  it("name -> variable round-trips for any non-empty variable", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: "binary" }), (variable) => {
        const name = statsColumnName(variable);
        return isStatsColumn(name) && statsVariable(name) === variable;
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});
