import { loggedLines, quickStartAndReadme } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import * as zarr from "../src/index.js";

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
    const lines = await loggedLines(() => import("../examples/quick-start.js"));
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
    const { readme, example } = quickStartAndReadme(import.meta.url, "import { mkdtempSync");
    expect(readme).toContain(example);
  });
});
