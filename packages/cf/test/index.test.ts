import { loggedLines, quickStartAndReadme } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import * as cf from "../src/index.js";

describe("@lance-nd/cf public API", () => {
  it("exports exactly the documented names", () => {
    expect(Object.keys(cf).sort()).toEqual([
      "BYTE_ATTRS_ATTR",
      "CHAR_DIM_ATTR",
      "CHAR_DIM_SIZE_ATTR",
      "CHUNK_SIZES_ATTR",
      "CfError",
      "DEFLATE_LEVEL_ATTR",
      "DIM_ORDER_ATTR",
      "DTYPE_NAMES",
      "FILTER_ATTR",
      "FORMAT_ATTR",
      "RAW_VARIABLE_ATTR",
      "SHUFFLE_ATTR",
      "STORAGE_ATTRS",
      "STORED_DTYPE_ATTR",
      "STRING_ATTRS_ATTR",
      "UNLIMITED_ATTR",
      "UNUSED_DIMS_ATTR",
      "UNUSED_DIM_SIZES_ATTR",
      "VARIABLE_ORDER_ATTR",
      "arrowType",
      "boundsTimeAttrs",
      "castFill",
      "cfDecode",
      "cfEncode",
      "cfTimeToDate",
      "cfTimeToDateTime",
      "dateTimeToCfTime",
      "dateToCfTime",
      "defaultFillValue",
      "dtypeOf",
      "formatCfDateTime",
      "formatCfTime",
      "isCfError",
      "isCfTimeUnits",
      "isDtype",
      "maskRoundTrips",
      "parseCfTimeUnits",
      "sameCfTimeEncoding",
      "unpackedDtype",
      "withCoordinates",
    ]);
  });

  it("the quick-start example runs and prints what its comments say", async () => {
    const lines = await loggedLines(() => import("../examples/quick-start.js"));
    expect(lines).toEqual([
      '"Float32" [285.15,null,288.15]',
      '"Timestamp<SECOND, UTC>" ["2000-01-01T00:00:00.000Z","2000-02-01T00:00:00.000Z"]',
      "[0,31] [1200,-32767,1500]",
      "1.5",
      '"1990-01-02T12:00:00.000Z"',
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const { readme, example } = quickStartAndReadme(import.meta.url);
    expect(readme).toContain(example);
  });
});
