import { describe, expect, it } from "vitest";
import { Float32, Int32, Schema, Utf8 } from "apache-arrow";
import { arrayColumnField, encodeSchema, globalAttrsField } from "@lance-nd/nd-arrow";
import { describeSchema, tableSchema } from "../src/index.js";
import { oceanChunk, stationBatch } from "./datasets.js";
import { attrField, formatErrorOf, ndSchemaOf } from "./fixtures.js";

// Golden table schemas of typical datasets, printed by describeSchema:
// `name?: Type {field metadata}` per field (`?` = nullable), then the schema metadata.
const ARRAY = "ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}";
const ZSTD = " {lance-encoding:compression=zstd, lance-encoding:compression-level=3}";
const ZSTD_BSS = " {lance-encoding:compression=zstd, lance-encoding:compression-level=3, lance-encoding:bss=on}";

/**
 * The lines of array column `name` (field metadata `meta`): its values of
 * `type`, dim names and sizes, then its attrs struct of `attrs` (lines
 * below it) when it has one; `leaf` ends the line of every leaf.
 */
function arrayColumnLines(name: string, meta: string, type: string, leaf: string, attrs: string[] = []): string[] {
  return [
    `${name}?: Struct {${meta}}`,
    `  values: List`,
    `    item?: ${type}${leaf}`,
    `  dim_names: List`,
    `    item: Utf8${leaf}`,
    `  dim_sizes: List`,
    `    item: Uint32${leaf}`,
    ...(attrs.length === 0 ? [] : [`  attrs: Struct`, ...attrs.map((line) => `    ${line}`)]),
  ];
}

/** The lines of the stats column of `name`: min and max of `type`, each ending with `leaf`; `meta` ends the struct's line. */
function statsColumnLines(name: string, type: string, leaf: string, meta = ""): string[] {
  return [`__stats__:${name}?: Struct${meta}`, `  min?: ${type}${leaf}`, `  max?: ${type}${leaf}`];
}

const OCEAN = [
  ...arrayColumnLines(
    "sst",
    `source=model, ${ARRAY}, lance-encoding:structural-encoding=miniblock`,
    "Float32",
    ZSTD_BSS,
    [`units?: Utf8${ZSTD_BSS}`, `valid_range?: List`, `  item?: Float32${ZSTD_BSS}`],
  ),
  ...arrayColumnLines("lat", ARRAY, "Float32", ZSTD, [`units?: Utf8${ZSTD}`]),
  ...arrayColumnLines("lon", ARRAY, "Float32", ZSTD, [`units?: Utf8${ZSTD}`]),
  ...arrayColumnLines("time", ARRAY, "Timestamp<SECOND, UTC>", ZSTD),
  `__global_attrs__?: Struct {ARROW:extension:name=nd_arrow.global_attributes}`,
  `  id?: Utf8${ZSTD}`,
  `  title?: Utf8${ZSTD}`,
  ...statsColumnLines("sst", "Float32", ZSTD_BSS, " {lance-encoding:structural-encoding=miniblock}"),
  ...statsColumnLines("lat", "Float32", ZSTD),
  ...statsColumnLines("lon", "Float32", ZSTD),
  ...statsColumnLines("time", "Timestamp<SECOND, UTC>", ZSTD),
  `metadata lance_nd:format = 1`,
  `metadata lance_nd.column_defaults.lance-encoding:compression = zstd`,
  `metadata lance_nd.column_defaults.lance-encoding:compression-level = 3`,
  `metadata lance_nd:stats = true`,
].join("\n");

const STATIONS = [
  ...arrayColumnLines("station", ARRAY, "Utf8", ""),
  ...arrayColumnLines("observed", ARRAY, "Timestamp<SECOND>", ""),
  ...arrayColumnLines("flag", ARRAY, "Bool", ""),
  ...statsColumnLines("station", "Utf8", ""),
  ...statsColumnLines("observed", "Timestamp<SECOND>", ""),
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
