import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { droppedDims, hasSelection, parseIsel, parseSel } from "../../src/args/selection.js";

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
  it("numbers and ISO dates (UTC without a zone), single or lo:hi in either order", () => {
    expect(new Map(parseSel("lat=-10:10,lon=12.5"))).toEqual(
      new Map<string, unknown>([
        ["lat", [-10, 10]],
        ["lon", 12.5],
      ]),
    );
    expect(new Map(parseSel("time=2000-03-01"))).toEqual(new Map([["time", new Date("2000-03-01T00:00:00Z")]]));
    expect(new Map(parseSel("time=2000-03-31T12:30:2000-03-01T06:00Z"))).toEqual(
      new Map([["time", [new Date("2000-03-31T12:30:00Z"), new Date("2000-03-01T06:00:00Z")]]]),
    );
    expect(new Map(parseSel("depth=1e3:-5e2"))).toEqual(new Map([["depth", [1000, -500]]]));
  });

  it("method=nearest is the method of single values, in any --sel; method=<value> is a dim named method", () => {
    const nearest = parseSel("lat=12.3,method=nearest");
    expect([new Map(nearest), nearest.method]).toEqual([new Map([["lat", 12.3]]), "nearest"]);
    const repeated = parseSel("lon=5", parseSel("method=nearest"));
    expect([new Map(repeated), repeated.method]).toEqual([new Map([["lon", 5]]), "nearest"]);
    const dim = parseSel("method=2");
    expect([new Map(dim), dim.method]).toEqual([new Map([["method", 2]]), undefined]);
  });

  it("words and half ranges are usage errors", () => {
    for (const bad of ["lat=north", "lat=1:", "lat=:1", "time=2000-13-45", "lat"])
      expect(() => parseSel(bad), bad).toThrow(InvalidArgumentError);
  });

  it("a day the Gregorian calendar lacks is refused, not read as the next month", () => {
    for (const bad of ["time=2000-02-30", "time=2001-02-29:2001-03-05", "time=2000-04-31T12:00Z"])
      expect(() => parseSel(bad), bad).toThrow(/is not a Gregorian date; a date of another calendar/);
    expect(new Map(parseSel("time=2000-02-29"))).toEqual(new Map([["time", new Date("2000-02-29T00:00:00Z")]]));
  });

  it("single values drop their dims; no options is no selection", () => {
    expect(droppedDims({ isel: parseIsel("time=0,lat=1:3"), sel: parseSel("lon=5") })).toEqual(
      new Set(["time", "lon"]),
    );
    expect(hasSelection({})).toBe(false);
    expect(hasSelection({ sel: parseSel("lon=5") })).toBe(true);
  });
});
