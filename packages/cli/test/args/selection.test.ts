import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { hasSelection, parseIsel, parseSel, selectionSpecs } from "../../src/args/selection.js";

describe("--isel", () => {
  it("an index or a start:stop range per dim; the option repeats", () => {
    expect(parseIsel("time=3,lat=10:20")).toEqual(
      new Map<string, unknown>([
        ["time", 3],
        ["lat", [10, 20]],
      ]),
    );
    expect(parseIsel("lon=0:5", parseIsel("time=1"))).toEqual(
      new Map<string, unknown>([
        ["time", 1],
        ["lon", [0, 5]],
      ]),
    );
  });

  it("negative indices count from the end, as in Python", () => {
    expect(parseIsel("time=-1,lat=-3:-1,lon=2:-2")).toEqual(
      new Map<string, unknown>([
        ["time", -1],
        ["lat", [-3, -1]],
        ["lon", [2, -2]],
      ]),
    );
  });

  it("fractional, open or twice-given values are usage errors", () => {
    for (const bad of ["time=1.5", "time=:3", "time=3:", "time=a", "time", "time=1,time=2"]) {
      expect(() => parseIsel(bad), bad).toThrow(InvalidArgumentError);
    }
  });
});

describe("--sel", () => {
  it("numbers, and ISO dates whole or partial as text; a slice start:stop keeps its order", () => {
    expect(new Map(parseSel("lat=10:-10,lon=12.5"))).toEqual(
      new Map<string, unknown>([
        ["lat", [10, -10]],
        ["lon", 12.5],
      ]),
    );
    expect(new Map(parseSel("time=2000-03"))).toEqual(new Map([["time", "2000-03"]]));
    expect(new Map(parseSel("time=2000-03-01T06:00Z:2000-03-31T12:30"))).toEqual(
      new Map([["time", ["2000-03-01T06:00Z", "2000-03-31T12:30"]]]),
    );
    expect(new Map(parseSel("depth=-5e2:1e3"))).toEqual(new Map([["depth", [-500, 1000]]]));
  });

  it("an integer a number cannot hold exactly is a bigint, so a 64-bit coordinate compares it exactly", () => {
    expect(new Map(parseSel("x=9007199254740993,y=9007199254740991"))).toEqual(
      new Map<string, unknown>([
        ["x", 9007199254740993n],
        ["y", 9007199254740991],
      ]),
    );
    expect(new Map(parseSel("x=-9223372036854775808:9223372036854775807"))).toEqual(
      new Map([["x", [-(2n ** 63n), 2n ** 63n - 1n]]]),
    );
  });

  it("method=nearest and tolerance=x are options of single values, in any --sel; method=<value> is a dim named method", () => {
    const nearest = parseSel("lat=12.3,method=nearest,tolerance=0.5");
    expect([new Map(nearest), selectionSpecs({ sel: nearest }).selOptions]).toEqual([
      new Map([["lat", 12.3]]),
      { method: "nearest", tolerance: 0.5 },
    ]);
    const repeated = parseSel("lon=5", parseSel("method=nearest"));
    expect([new Map(repeated), repeated.method]).toEqual([new Map([["lon", 5]]), "nearest"]);
    const dim = parseSel("method=2");
    expect([new Map(dim), dim.method]).toEqual([new Map([["method", 2]]), undefined]);
    expect(() => parseSel("lat=1,tolerance=2")).toThrow(/tolerance=2 needs method=nearest/);
  });

  it("words and half slices are usage errors", () => {
    for (const bad of ["lat=north", "lat=1:", "lat=:1", "time=2000-1-45", "lat"])
      expect(() => parseSel(bad), bad).toThrow(InvalidArgumentError);
  });

  it("no options is no selection", () => {
    expect(hasSelection({})).toBe(false);
    expect(hasSelection({ sel: parseSel("lon=5") })).toBe(true);
  });
});
