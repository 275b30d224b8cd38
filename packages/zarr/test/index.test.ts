import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as zarr from "../src/index.js";

afterEach(() => vi.restoreAllMocks());

describe("@lance-nd/zarr public API", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(zarr).sort()).toEqual([
      "ZarrError",
      "isZarrError",
      "openZarr",
      "storeFetch",
      "writeZarr",
      "zarrGroups",
    ]);
  });

  it("the quick-start example runs and prints what the README says", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation(
      (...args: unknown[]) => void lines.push(args.map((a) => JSON.stringify(a)).join(" ")),
    );
    await import("../examples/quick-start.js");
    expect(lines).toEqual([
      '3 "time=4 lat=3 lon=2"',
      '[2,3,2] "sst.zarr"',
      '["time","lon"] [281.5,281.75,283,283.25]',
      "[0,0,0] [4,3,2]",
      '"Timestamp<SECOND, UTC>"',
      '{"arrays":["lat","sst","time"],"rows":1,"chunks":3,"dims":[{"name":"time","size":4},{"name":"lat","size":3},{"name":"lon","size":2}]}',
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
    const example = read("../examples/quick-start.ts");
    const body = example.slice(example.indexOf("import { mkdtempSync")).trim();
    expect(read("../README.md")).toContain(body);
  });
});
