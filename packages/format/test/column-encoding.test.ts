import { Field, Float32, Int32, Utf8 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { arrayColumnField } from "@lance-nd/nd-arrow";
import { statsField } from "@lance-nd/stats";
import {
  applyColumnEncoding,
  columnEncoding,
  describeSchema,
  isFormatError,
  stripEncodingMetadata,
} from "../src/index.js";
import { Schema } from "apache-arrow";

const sst = arrayColumnField(
  "sst",
  new Float32(),
  [new Field("units", new Utf8(), true), new Field("scale", new Int32(), true)],
  new Map([["note", "mine"]]),
);

describe("column encoding (FORMAT.md section 3)", () => {
  it("6 the structural encoding goes on the top-level field, the other keys on each leaf field", () => {
    const field = applyColumnEncoding(sst, {
      structuralEncoding: "miniblock",
      compression: { codec: "zstd", level: 3 },
      bss: "on",
      rleThreshold: 0.25,
    });
    expect(describeSchema(new Schema([field]))).toBe(
      [
        "sst?: Struct {note=mine, ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}, lance-encoding:structural-encoding=miniblock}",
        "  values: List",
        "    item?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on, lance-encoding:rle-threshold=0.25}",
        "  dim_names: List",
        "    item: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on, lance-encoding:rle-threshold=0.25}",
        "  dim_sizes: List",
        "    item: Uint32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on, lance-encoding:rle-threshold=0.25}",
        "  attrs: Struct",
        "    units?: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on, lance-encoding:rle-threshold=0.25}",
        "    scale?: Int32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on, lance-encoding:rle-threshold=0.25}",
      ].join("\n"),
    );
  });

  it("6 the min and max leaves of a stats column get the leaf keys", () => {
    const field = applyColumnEncoding(statsField("sst", new Float32()), {
      compression: "lz4",
      structuralEncoding: "fullzip",
    });
    expect(describeSchema(new Schema([field]))).toBe(
      [
        "__stats__:sst?: Struct {lance-encoding:structural-encoding=fullzip}",
        "  min?: Float32 {lance-encoding:compression=lz4}",
        "  max?: Float32 {lance-encoding:compression=lz4}",
      ].join("\n"),
    );
  });

  it("the encoding reads back from the field as it was applied", () => {
    for (const options of [
      {},
      { compression: "zstd" as const },
      {
        structuralEncoding: "fullzip" as const,
        compression: { codec: "zstd" as const, level: 19 },
        bss: "auto" as const,
        rleThreshold: 1,
      },
    ]) {
      expect(columnEncoding(applyColumnEncoding(sst, options))).toEqual(options);
    }
  });

  it("applying options replaces the earlier encoding and keeps other metadata", () => {
    const twice = applyColumnEncoding(applyColumnEncoding(sst, { compression: "zstd", bss: "on" }), {
      compression: "lz4",
    });
    expect(columnEncoding(twice)).toEqual({ compression: "lz4" });
    expect(twice.metadata.get("note")).toBe("mine");
  });

  it("stripping removes each lance-encoding key at every level and keeps the rest", () => {
    const stripped = stripEncodingMetadata(
      applyColumnEncoding(sst, { structuralEncoding: "miniblock", compression: "zstd" }),
    );
    expect(describeSchema(new Schema([stripped]))).toBe(describeSchema(new Schema([sst])));
  });

  it("a bad encoding value in a table's field is InvalidTable", () => {
    const bad = new Field("x", new Float32(), true, new Map([["lance-encoding:compression", "gzip"]]));
    try {
      columnEncoding(bad);
      expect.unreachable();
    } catch (err) {
      expect(isFormatError(err, "InvalidTable")).toBe(true);
      expect((err as Error).message).toContain('"gzip"');
    }
  });
});
