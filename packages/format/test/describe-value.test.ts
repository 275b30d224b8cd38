import { describe, expect, it } from "vitest";
import { describeValue } from "../src/index.js";

describe("describeValue (option values in error messages)", () => {
  it("renders JSON values, strings quoted", () => {
    expect(describeValue({ codec: "zstd", level: 2.5 })).toBe('{"codec":"zstd","level":2.5}');
    expect(describeValue("lz5")).toBe('"lz5"');
  });

  it("renders what JSON cannot: undefined, bigint, functions and cycles", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(describeValue(undefined)).toBe("undefined");
    expect(describeValue(12n)).toBe("12n");
    expect(describeValue(() => 1)).toBe("() => 1");
    expect(describeValue(cycle)).toBe("[object Object]");
  });
});
