import { describe, expect, it } from "vitest";
import { columnDefaultsMetadata, isFormatError, readColumnDefaults } from "../src/index.js";

/** What a table's metadata looks like after the SDK added `added` to `metadata`. */
function add(metadata: Map<string, string>, added: Map<string, string>): Map<string, string> {
  for (const key of added.keys()) expect(metadata.has(key), `key ${key} must be new`).toBe(false);
  return new Map([...metadata, ...added]);
}

describe("column defaults (FORMAT.md section 3)", () => {
  it("6 the defaults are table schema metadata keys lance_nd.column_defaults. + a lance-encoding key", () => {
    const metadata = columnDefaultsMetadata({
      compression: { codec: "zstd", level: 3 },
      structuralEncoding: "miniblock",
    });
    expect([...metadata]).toEqual([
      ["lance_nd.column_defaults.lance-encoding:structural-encoding", "miniblock"],
      ["lance_nd.column_defaults.lance-encoding:compression", "zstd"],
      ["lance_nd.column_defaults.lance-encoding:compression-level", "3"],
    ]);
    expect(readColumnDefaults(metadata)).toEqual({
      compression: { codec: "zstd", level: 3 },
      structuralEncoding: "miniblock",
    });
  });

  it("the seed's keys written by another writer read back", () => {
    const metadata = new Map([
      ["lance_nd:format", "1"],
      ["lance_nd.column_defaults.lance-encoding:bss", "off"],
      ["lance_nd.column_defaults.lance-encoding:rle-threshold", "0.5"],
    ]);
    expect(readColumnDefaults(metadata)).toEqual({ bss: "off", rleThreshold: 0.5 });
    expect(readColumnDefaults(new Map())).toEqual({});
  });

  it("changing the defaults only adds keys: a new generation wins", () => {
    let metadata = add(new Map([["lance_nd:format", "1"]]), columnDefaultsMetadata({ compression: "zstd", bss: "on" }));
    const second = columnDefaultsMetadata({ compression: "lz4" }, metadata);
    expect([...second]).toEqual([
      ["lance_nd.column_defaults@1.lance-encoding:compression", "lz4"],
      ["lance_nd.column_defaults@1", "1"],
    ]);
    metadata = add(metadata, second);
    expect(readColumnDefaults(metadata)).toEqual({ compression: "lz4" });
    metadata = add(metadata, columnDefaultsMetadata({ compression: { codec: "zstd", level: 9 } }, metadata));
    expect(readColumnDefaults(metadata)).toEqual({ compression: { codec: "zstd", level: 9 } });
  });

  it("removing every default is a generation without keys", () => {
    let metadata = columnDefaultsMetadata({ compression: "zstd" });
    const cleared = columnDefaultsMetadata({}, metadata);
    expect([...cleared]).toEqual([["lance_nd.column_defaults@1", "0"]]);
    metadata = add(metadata, cleared);
    expect(readColumnDefaults(metadata)).toEqual({});
    metadata = add(metadata, columnDefaultsMetadata({ bss: "auto" }, metadata));
    expect(readColumnDefaults(metadata)).toEqual({ bss: "auto" });
  });

  it("setting the current defaults again adds nothing", () => {
    const metadata = columnDefaultsMetadata({ compression: "zstd" });
    expect(columnDefaultsMetadata({ compression: { codec: "zstd" } }, metadata).size).toBe(0);
    expect(columnDefaultsMetadata({}).size).toBe(0);
  });

  it("bad options are InvalidInput; bad or incomplete stored defaults are InvalidTable", () => {
    const code = (fn: () => unknown): string | undefined => {
      try {
        fn();
      } catch (err) {
        return isFormatError(err) ? err.code : "other";
      }
      return undefined;
    };
    expect(code(() => columnDefaultsMetadata({ bss: "maybe" as "on" }))).toBe("InvalidInput");
    expect(
      code(() => readColumnDefaults(new Map([["lance_nd.column_defaults.lance-encoding:compression-level", "x"]]))),
    ).toBe("InvalidTable");
    expect(code(() => readColumnDefaults(new Map([["lance_nd.column_defaults@2", "1"]])))).toBe("InvalidTable");
  });
});
