import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { parseArrowType } from "../../src/args/arrow-type.js";
import { parseAssignments, parseIntAssignments } from "../../src/args/assignments.js";
import { columnOptionsFrom, parseCompression } from "../../src/args/column-options.js";
import { parseDuration } from "../../src/args/duration.js";
import { parseStorageOption } from "../../src/args/storage-options.js";

describe("parseDuration", () => {
  it("s, m, h and d units give milliseconds; fractions are allowed", () => {
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("1.5h")).toBe(5_400_000);
    expect(parseDuration("7d")).toBe(604_800_000);
  });

  it("a missing or unknown unit is a usage error", () => {
    for (const bad of ["7", "7w", "d", "-1d", ""]) expect(() => parseDuration(bad)).toThrow(InvalidArgumentError);
  });
});

describe("parseStorageOption", () => {
  it("one key=value per option, split at the first '=', the key lowercased and the value kept whole", () => {
    const first = parseStorageOption("AWS_ENDPOINT=http://127.0.0.1:9000");
    expect(parseStorageOption("azure_storage_account_key=a+b/c==,d", first)).toEqual({
      aws_endpoint: "http://127.0.0.1:9000",
      azure_storage_account_key: "a+b/c==,d",
    });
  });

  it("text without '=', an empty key or a key given twice is a usage error", () => {
    expect(() => parseStorageOption("endpoint")).toThrow(/expected key=value, got "endpoint"/);
    expect(() => parseStorageOption(" =x")).toThrow(InvalidArgumentError);
    expect(() => parseStorageOption("Region=b", { region: "a" })).toThrow(/"region" is given twice/);
  });
});

describe("parseAssignments", () => {
  it("comma-separated name=value pairs, added to an earlier occurrence of the option", () => {
    const first = parseAssignments("compression=zstd, bss=on");
    expect([...parseAssignments("rle-threshold=0.5", first)]).toEqual([
      ["compression", "zstd"],
      ["bss", "on"],
      ["rle-threshold", "0.5"],
    ]);
  });

  it("a pair without '=' or a name given twice is a usage error", () => {
    expect(() => parseAssignments("time")).toThrow(/expected name=value/);
    expect(() => parseAssignments("a=1,a=2")).toThrow(/given twice/);
  });

  it("integer pairs: chunk sizes start at 1, indices at 0", () => {
    expect([...parseIntAssignments("time=4,lat=90", 1)]).toEqual([
      ["time", 4],
      ["lat", 90],
    ]);
    expect(parseIntAssignments("time=0", 0).get("time")).toBe(0);
    expect(() => parseIntAssignments("time=0", 1)).toThrow(/integer >= 1/);
    expect(() => parseIntAssignments("time=1.5", 0)).toThrow(InvalidArgumentError);
  });
});

describe("parseArrowType", () => {
  it("numpy-style names map to Arrow types, case-insensitive, with aliases", () => {
    expect(String(parseArrowType("float64"))).toBe("Float64");
    expect(String(parseArrowType("Int32"))).toBe("Int32");
    expect(String(parseArrowType("uint16"))).toBe("Uint16");
    expect(String(parseArrowType("double"))).toBe("Float64");
  });

  it("an unknown name lists the known ones", () => {
    expect(() => parseArrowType("complex64")).toThrow(
      /unknown type "complex64" \(known: int8, .*, float64, bool, float16, utf8, large_utf8\)/,
    );
  });
});

describe("column options", () => {
  it("compression: a codec, or zstd with a level", () => {
    expect(parseCompression("lz4")).toBe("lz4");
    expect(parseCompression("zstd:3")).toEqual({ codec: "zstd", level: 3 });
    expect(() => parseCompression("lz4:3")).toThrow(/only goes with zstd/);
    expect(() => parseCompression("gzip")).toThrow(InvalidArgumentError);
  });

  it("settings become ColumnOptions over the current ones; a level alone keeps zstd", () => {
    const settings = new Map([
      ["compression-level", "5"],
      ["bss", "on"],
      ["structural-encoding", "fullzip"],
      ["rle-threshold", "0.25"],
    ]);
    expect(columnOptionsFrom(settings, { compression: "zstd", bss: "off" })).toEqual({
      compression: { codec: "zstd", level: 5 },
      bss: "on",
      structuralEncoding: "fullzip",
      rleThreshold: 0.25,
    });
  });

  it("unknown settings and bad values are usage errors naming the setting", () => {
    expect(() => columnOptionsFrom(new Map([["codec", "zstd"]]))).toThrow(/unknown setting "codec"/);
    expect(() => columnOptionsFrom(new Map([["bss", "yes"]]))).toThrow(/bss=yes: expected off, on, auto/);
    expect(() => columnOptionsFrom(new Map([["rle-threshold", "2"]]))).toThrow(/from 0 to 1/);
    expect(() =>
      columnOptionsFrom(
        new Map([
          ["compression", "lz4"],
          ["compression-level", "3"],
        ]),
      ),
    ).toThrow(/goes with zstd/);
  });
});
