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

  it("negative, fractional, open or twice-given values are usage errors", () => {
    for (const bad of ["time=-1", "time=1.5", "time=:3", "time=3:", "time=a", "time", "time=1,time=2"]) {
      expect(() => parseIsel(bad), bad).toThrow(InvalidArgumentError);
    }
  });
});

describe("--sel", () => {
  it("numbers and ISO dates (UTC without a zone), single or lo:hi in either order", () => {
    expect(parseSel("lat=-10:10,lon=12.5")).toEqual(
      new Map<string, unknown>([
        ["lat", [-10, 10]],
        ["lon", 12.5],
      ]),
    );
    expect(parseSel("time=2000-03-01")).toEqual(new Map([["time", new Date("2000-03-01T00:00:00Z")]]));
    expect(parseSel("time=2000-03-31T12:30:2000-03-01T06:00Z")).toEqual(
      new Map([["time", [new Date("2000-03-31T12:30:00Z"), new Date("2000-03-01T06:00:00Z")]]]),
    );
    expect(parseSel("depth=1e3:-5e2")).toEqual(new Map([["depth", [1000, -500]]]));
  });

  it("words and half ranges are usage errors", () => {
    for (const bad of ["lat=north", "lat=1:", "lat=:1", "time=2000-13-45", "lat"])
      expect(() => parseSel(bad), bad).toThrow(InvalidArgumentError);
  });

  it("a day the Gregorian calendar lacks is refused, not read as the next month", () => {
    for (const bad of ["time=2000-02-30", "time=2001-02-29:2001-03-05", "time=2000-04-31T12:00Z"])
      expect(() => parseSel(bad), bad).toThrow(/is not a Gregorian date; a date of another calendar/);
    expect(parseSel("time=2000-02-29")).toEqual(new Map([["time", new Date("2000-02-29T00:00:00Z")]]));
  });

  it("single values drop their dims; no options is no selection", () => {
    expect(droppedDims({ isel: parseIsel("time=0,lat=1:3"), sel: parseSel("lon=5") })).toEqual(
      new Set(["time", "lon"]),
    );
    expect(hasSelection({})).toBe(false);
    expect(hasSelection({ sel: parseSel("lon=5") })).toBe(true);
  });
});
