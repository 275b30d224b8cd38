import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as cf from "../src/index.js";

afterEach(() => vi.restoreAllMocks());

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
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation(
      (...args: unknown[]) => void lines.push(args.map((a) => JSON.stringify(a)).join(" ")),
    );
    await import("../examples/quick-start.js");
    expect(lines).toEqual([
      '"Float32" [285.15,null,288.15]',
      '"Timestamp<SECOND, UTC>" ["2000-01-01T00:00:00.000Z","2000-02-01T00:00:00.000Z"]',
      "[0,31] [1200,-32767,1500]",
      "1.5",
      '"1990-01-02T12:00:00.000Z"',
    ]);
  });

  it("the README shows the quick-start example as it is", () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
    const example = read("../examples/quick-start.ts");
    expect(read("../README.md")).toContain(example.trim());
  });
});
