import { describe, expect, it } from "vitest";
import { type FormatError, isFormatError, mergeColumnOptions, parseColumnOptions } from "../src/index.js";

function messageOf(input: unknown, where?: string): string {
  try {
    parseColumnOptions(input, where);
  } catch (err) {
    expect(isFormatError(err, "InvalidInput")).toBe(true);
    return (err as FormatError).message;
  }
  throw new Error("expected InvalidInput");
}

describe("column options", () => {
  it("valid options come back in canonical form (a codec without a level is a string)", () => {
    expect(parseColumnOptions({})).toEqual({});
    expect(parseColumnOptions({ compression: { codec: "lz4" } })).toEqual({ compression: "lz4" });
    expect(
      parseColumnOptions({
        structuralEncoding: "fullzip",
        compression: { codec: "zstd", level: 3 },
        bss: "auto",
        rleThreshold: 0.5,
      }),
    ).toEqual({
      structuralEncoding: "fullzip",
      compression: { codec: "zstd", level: 3 },
      bss: "auto",
      rleThreshold: 0.5,
    });
    expect(parseColumnOptions({ rleThreshold: 0 })).toEqual({ rleThreshold: 0 });
    expect(parseColumnOptions({ rleThreshold: 1, compression: { codec: "zstd", level: -5 } })).toEqual({
      rleThreshold: 1,
      compression: { codec: "zstd", level: -5 },
    });
  });

  it("one InvalidInput message names the option path, the bad value and what is allowed", () => {
    expect(messageOf({ compression: "gzip" }, "columns.sst")).toBe(
      'invalid columns.sst: columns.sst.compression = "gzip": expected "none", "lz4" or "zstd"',
    );
    expect(messageOf({ compression: { codec: "zstd", level: 2.5 } }, "columnDefaults")).toBe(
      "invalid columnDefaults: columnDefaults.compression.level = 2.5: expected an integer",
    );
    expect(messageOf({ compression: { codec: "lz4", level: 3 } })).toContain(
      'compression.level = 3: a compression level is only allowed with "zstd"',
    );
    expect(messageOf({ compression: 7 })).toContain(
      'compression = 7: expected "none", "lz4", "zstd" or { codec, level? }',
    );
    expect(messageOf({ structuralEncoding: "mini" })).toContain(
      'structuralEncoding = "mini": expected "miniblock" or "fullzip"',
    );
    expect(messageOf({ bss: true })).toContain('bss = true: expected "off", "on" or "auto"');
    expect(messageOf({ rleThreshold: 1.5 })).toContain("rleThreshold = 1.5: expected a number from 0 to 1");
    expect(messageOf({ rleThreshold: "0.5" })).toContain('rleThreshold = "0.5": expected a number from 0 to 1');
    expect(messageOf({ rle: 1 })).toContain(
      'unknown option "rle" (allowed: structuralEncoding, compression, bss, rleThreshold)',
    );
    expect(messageOf({ compression: { codec: "zstd", lvl: 1 } })).toContain(
      'compression: unknown option "lvl" (allowed: codec, level)',
    );
    expect(messageOf("zstd")).toContain("expected an object with the options");
  });

  it("several bad options are listed in one message", () => {
    const message = messageOf({ bss: "yes", rleThreshold: -1 });
    expect(message).toContain("bss");
    expect(message).toContain("rleThreshold");
  });

  it("a column's own options override the defaults option by option", () => {
    expect(mergeColumnOptions({ compression: "zstd", bss: "on" }, { bss: "off" })).toEqual({
      compression: "zstd",
      bss: "off",
    });
    expect(mergeColumnOptions({ compression: "zstd" }, undefined)).toEqual({ compression: "zstd" });
  });
});
