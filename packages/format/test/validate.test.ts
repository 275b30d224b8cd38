import { Field, Float32, Float64, Int32, Schema, Struct, Utf8 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { arrayColumnField } from "@lance-nd/nd-arrow";
import { statsField } from "@lance-nd/stats";
import { describeSchema, ndSchema, tableSchema, validateTableSchema } from "../src/index.js";
import { attrField, formatErrorOf, ndSchemaOf } from "./fixtures.js";

const FORMAT = new Map([["lance_nd:format", "1"]]);
const sst = arrayColumnField("sst", new Float32());

describe("validateTableSchema", () => {
  it("returns the layout of a valid table", () => {
    const schema = tableSchema(
      ndSchemaOf(
        [
          ["sst", new Float32(), [attrField("units", new Utf8())]],
          ["n", new Int32()],
        ],
        [attrField("id", new Utf8())],
      ),
      {
        stats: true,
        columnDefaults: { bss: "auto" },
      },
    );
    const layout = validateTableSchema(schema);
    expect(layout.formatVersion).toBe(1);
    expect([...layout.arrays.keys()]).toEqual(["sst", "n"]);
    expect(String(layout.arrays.get("sst")!.valueType)).toBe("Float32");
    expect(layout.arrays.get("sst")!.attrFields.map((f) => f.name)).toEqual(["units"]);
    expect(layout.globalAttrs?.name).toBe("__global_attrs__");
    expect(layout.stats).toBe(true);
    expect([...layout.statsColumns.keys()]).toEqual(["sst", "n"]);
    expect(layout.columnDefaults).toEqual({ bss: "auto" });
  });

  it("a column that is not nd, stats or __global_attrs__ is InvalidTable", () => {
    const err = formatErrorOf(
      () => validateTableSchema(new Schema([sst, new Field("extra", new Int32(), true)], FORMAT)),
      "InvalidTable",
    );
    expect(err.column).toBe("extra");
  });

  it("an nd_arrow.array column with a reserved name is InvalidTable", () => {
    formatErrorOf(
      () => validateTableSchema(new Schema([arrayColumnField("__x", new Float32())], FORMAT)),
      "InvalidTable",
    );
  });

  it("an array column with a broken layout is InvalidTable naming it", () => {
    const broken = new Field("sst", new Struct([new Field("values", new Float32(), false)]), true, sst.metadata);
    expect(formatErrorOf(() => validateTableSchema(new Schema([broken], FORMAT)), "InvalidTable").column).toBe("sst");
  });

  it("a stats column whose variable is missing is InvalidTable", () => {
    const err = formatErrorOf(
      () => validateTableSchema(new Schema([sst, statsField("chl", new Float32())], FORMAT)),
      "InvalidTable",
    );
    expect(err.message).toContain('no variable "chl"');
  });

  it("a stats column whose min/max type is not the variable's type is InvalidTable", () => {
    const err = formatErrorOf(
      () => validateTableSchema(new Schema([sst, statsField("sst", new Float64())], FORMAT)),
      "InvalidTable",
    );
    expect(err.column).toBe("__stats__:sst");
    expect(err.message).toContain("Struct<min: Float32, max: Float32>");
    const notStruct = new Field("__stats__:sst", new Float32(), true);
    formatErrorOf(() => validateTableSchema(new Schema([sst, notStruct], FORMAT)), "InvalidTable");
    formatErrorOf(
      () => validateTableSchema(new Schema([sst, new Field("__stats__", new Float32(), true)], FORMAT)),
      "InvalidTable",
    );
  });

  it("a __global_attrs__ column that is not a struct of attribute types is InvalidTable", () => {
    formatErrorOf(
      () => validateTableSchema(new Schema([new Field("__global_attrs__", new Utf8(), true)], FORMAT)),
      "InvalidTable",
    );
  });
});

describe("ndSchema", () => {
  it("maps a table schema back to the nd schema: no stats columns, no lance-encoding keys, other metadata kept", () => {
    const nd = ndSchemaOf([["sst", new Float32(), [attrField("units", new Utf8())]]], [attrField("id", new Utf8())]);
    const withMeta = new Schema([
      arrayColumnField("sst", new Float32(), [attrField("units", new Utf8())], new Map([["k", "v"]])),
      nd.fields[1]!,
    ]);
    const table = tableSchema(withMeta, {
      stats: true,
      columnDefaults: { compression: "zstd", structuralEncoding: "fullzip" },
    });
    const back = ndSchema(new Schema(table.fields, new Map([...table.metadata, ["user", "kept"]])));
    expect(describeSchema(back)).toBe(
      [
        "sst?: Struct {k=v, ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}",
        "  values: List",
        "    item?: Float32",
        "  dim_names: List",
        "    item: Utf8",
        "  dim_sizes: List",
        "    item: Uint32",
        "  attrs: Struct",
        "    units?: Utf8",
        "__global_attrs__?: Struct {ARROW:extension:name=nd_arrow.global_attributes}",
        "  id?: Utf8",
        "metadata user = kept",
      ].join("\n"),
    );
  });
});
