import { describe, expect, it } from "vitest";
import { Float32, Int32, Schema, Utf8 } from "apache-arrow";
import { arrayColumnField, encodeSchema, globalAttrsField } from "@lance-nd/nd-arrow";
import { describeSchema, tableSchema } from "../src/index.js";
import { oceanChunk, stationBatch } from "./datasets.js";
import { attrField, formatErrorOf, ndSchemaOf } from "./fixtures.js";

// Golden table schemas of typical datasets, printed by describeSchema:
// `name?: Type {field metadata}` per field (`?` = nullable), then the schema metadata.
const OCEAN = [
  `sst?: Struct {source=model, ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}, lance-encoding:structural-encoding=miniblock}`,
  `  values: List`,
  `    item?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `  dim_names: List`,
  `    item: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `  dim_sizes: List`,
  `    item: Uint32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `  attrs: Struct`,
  `    units?: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `    valid_range?: List`,
  `      item?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `lat?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}`,
  `  values: List`,
  `    item?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  dim_names: List`,
  `    item: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  dim_sizes: List`,
  `    item: Uint32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  attrs: Struct`,
  `    units?: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `lon?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}`,
  `  values: List`,
  `    item?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  dim_names: List`,
  `    item: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  dim_sizes: List`,
  `    item: Uint32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  attrs: Struct`,
  `    units?: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `time?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}`,
  `  values: List`,
  `    item?: Timestamp<SECOND, UTC> {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  dim_names: List`,
  `    item: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  dim_sizes: List`,
  `    item: Uint32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `__global_attrs__?: Struct {ARROW:extension:name=nd_arrow.global_attributes}`,
  `  id?: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  title?: Utf8 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `__stats__:sst?: Struct {lance-encoding:structural-encoding=miniblock}`,
  `  min?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `  max?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}`,
  `__stats__:lat?: Struct`,
  `  min?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  max?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `__stats__:lon?: Struct`,
  `  min?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  max?: Float32 {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `__stats__:time?: Struct`,
  `  min?: Timestamp<SECOND, UTC> {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `  max?: Timestamp<SECOND, UTC> {lance-encoding:compression=zstd, lance-encoding:compression-level=3}`,
  `metadata lance_nd:format = 1`,
  `metadata lance_nd.column_defaults.lance-encoding:compression = zstd`,
  `metadata lance_nd.column_defaults.lance-encoding:compression-level = 3`,
  `metadata lance_nd:stats = true`,
].join("\n");

const STATIONS = [
  `station?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}`,
  `  values: List`,
  `    item?: Utf8`,
  `  dim_names: List`,
  `    item: Utf8`,
  `  dim_sizes: List`,
  `    item: Uint32`,
  `observed?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}`,
  `  values: List`,
  `    item?: Timestamp<SECOND>`,
  `  dim_names: List`,
  `    item: Utf8`,
  `  dim_sizes: List`,
  `    item: Uint32`,
  `flag?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}`,
  `  values: List`,
  `    item?: Bool`,
  `  dim_names: List`,
  `    item: Utf8`,
  `  dim_sizes: List`,
  `    item: Uint32`,
  `__stats__:station?: Struct`,
  `  min?: Utf8`,
  `  max?: Utf8`,
  `__stats__:observed?: Struct`,
  `  min?: Timestamp<SECOND>`,
  `  max?: Timestamp<SECOND>`,
  `metadata lance_nd:format = 1`,
  `metadata lance_nd:stats = true`,
].join("\n");

describe("tableSchema", () => {
  it("golden: an ocean dataset sst(time, lat, lon) with coordinates, stats, zstd defaults and sst options", () => {
    const nd = encodeSchema([oceanChunk("a", 0), oceanChunk("b", 172800)]);
    const schema = tableSchema(nd, {
      stats: true,
      columnDefaults: { compression: { codec: "zstd", level: 3 } },
      columns: { sst: { bss: "on", structuralEncoding: "miniblock" } },
    });
    expect(describeSchema(schema)).toBe(OCEAN);
  });

  it("golden: a station dataset with string, timestamp and bool variables and no global attributes", () => {
    const schema = tableSchema(encodeSchema([stationBatch(["x", "y"]), stationBatch(["z"])]), { stats: true });
    expect(describeSchema(schema)).toBe(STATIONS);
  });

  it("without stats: no stats columns and no stats key", () => {
    const schema = tableSchema(ndSchemaOf([["n", new Int32()]]));
    expect(describeSchema(schema)).not.toContain("__stats__");
    expect(describeSchema(schema)).not.toContain("lance_nd:stats");
  });

  it("an nd schema with an empty __global_attrs__ struct gets no __global_attrs__ column", () => {
    const nd = new Schema([arrayColumnField("n", new Int32()), globalAttrsField([])]);
    expect(tableSchema(nd).fields.map((f) => f.name)).toEqual(["n"]);
  });

  it("options for __global_attrs__ by name apply to it", () => {
    const schema = tableSchema(ndSchemaOf([["n", new Int32()]], [attrField("id", new Utf8())]), {
      columns: { __global_attrs__: { compression: "lz4" } },
    });
    expect(describeSchema(schema)).toContain("id?: Utf8 {lance-encoding:compression=lz4}");
  });

  it("bad options and bad nd schemas are rejected with the right code", () => {
    formatErrorOf(
      () => tableSchema(ndSchemaOf([["n", new Float32()]]), { columnDefaults: { rleThreshold: 2 } }),
      "InvalidInput",
    );
    formatErrorOf(() => tableSchema(ndSchemaOf([["__n", new Float32()]])), "ReservedName");
    formatErrorOf(() => tableSchema(ndSchemaOf([["a.b", new Float32()]])), "InvalidInput");
  });
});
