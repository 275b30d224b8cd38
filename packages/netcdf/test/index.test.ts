import { loggedLines, quickStartAndReadme } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import * as netcdf from "../src/index.js";

describe("@lance-nd/netcdf public API", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(netcdf).sort()).toEqual([
      "CHAR_DIM_ATTR",
      "CHAR_DIM_SIZE_ATTR",
      "CHUNK_SIZES_ATTR",
      "DEFLATE_LEVEL_ATTR",
      "DIM_ORDER_ATTR",
      "FILTER_ATTR",
      "FORMAT_ATTR",
      "NetcdfError",
      "SHUFFLE_ATTR",
      "STORAGE_ATTRS",
      "STRING_ATTRS_ATTR",
      "UNLIMITED_ATTR",
      "UNUSED_DIMS_ATTR",
      "UNUSED_DIM_SIZES_ATTR",
      "VARIABLE_ORDER_ATTR",
      "detectFormat",
      "isNetcdfError",
      "ncDtype",
      "netcdfRowPlan",
      "openNetcdf",
      "openUrlSource",
      "readNetcdf",
      "selectNetcdf",
      "writeNetcdf",
      "writeNetcdfGroups",
    ]);
  });

  it("the quick-start example runs and prints what the README says", async () => {
    const lines = await loggedLines(() => import("../examples/quick-start.js"));
    expect(lines).toEqual([
      '"netcdf4" "time=4 (unlimited), lat=2, lon=3"',
      '[1,2,3] {"codec":"deflate","level":4,"shuffle":false}',
      "[1,2,2] [286,287,289,290]",
      "[0,0,0] [2,2,3]",
      "[2,0,0] [2,2,3]",
      '["time","sst"]',
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const { readme, example } = quickStartAndReadme(import.meta.url);
    expect(readme).toContain(example);
  });
});
