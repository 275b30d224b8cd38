import { Bool, Float32, Float64, Int16, Int32, Int8, Utf8 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { addedFields, columnEncoding, tableSchema, validateTableSchema, widenSchema } from "../src/index.js";
import { attrField, formatErrorOf, ndSchemaOf } from "./fixtures.js";

const table = tableSchema(
  ndSchemaOf([
    ["sst", new Float32(), [attrField("units", new Utf8())]],
    ["flag", new Bool()],
    ["n", new Int16()],
  ]),
  {
    stats: true,
    columns: { sst: { compression: "zstd", structuralEncoding: "fullzip" } },
  },
);

describe("widenSchema", () => {
  it("changes the value type and the stats type, keeping attributes, metadata, encoding and column order", () => {
    const { schema, widening } = widenSchema(table, "sst", new Float64());
    expect([widening.column, String(widening.from), String(widening.to), widening.statsColumn?.name]).toEqual([
      "sst",
      "Float32",
      "Float64",
      "__stats__:sst",
    ]);
    expect(schema.fields.map((f) => f.name)).toEqual(table.fields.map((f) => f.name));
    const layout = validateTableSchema(schema);
    expect(String(layout.arrays.get("sst")!.valueType)).toBe("Float64");
    expect(layout.arrays.get("sst")!.attrFields.map((f) => f.name)).toEqual(["units"]);
    expect(columnEncoding(layout.arrays.get("sst")!.field)).toEqual({
      compression: "zstd",
      structuralEncoding: "fullzip",
    });
    expect(columnEncoding(layout.statsColumns.get("sst")!)).toEqual({
      compression: "zstd",
      structuralEncoding: "fullzip",
    });
    expect(schema.metadata).toEqual(table.metadata);
  });

  it("a Bool variable widened to an integer gets its stats column in the same change", () => {
    const { schema, widening } = widenSchema(table, "flag", new Int8());
    expect(widening.statsColumn?.name).toBe("__stats__:flag");
    expect(validateTableSchema(schema).statsColumns.has("flag")).toBe(true);
  });

  it("a type that does not hold each old value is a SchemaMismatch under safe", () => {
    const err = formatErrorOf(() => widenSchema(table, "n", new Int8()), "SchemaMismatch");
    expect([err.column, String(err.from), String(err.to), err.casting]).toEqual(["n", "Int16", "Int8", "safe"]);
    widenSchema(table, "n", new Int32());
  });

  it("an unknown variable is InvalidInput", () => {
    expect(formatErrorOf(() => widenSchema(table, "chl", new Float64()), "InvalidInput").column).toBe("chl");
  });
});

describe("addedFields", () => {
  it("lists new columns and new struct children as paths, and ignores type changes", () => {
    const after = tableSchema(
      ndSchemaOf(
        [
          ["sst", new Float64(), [attrField("units", new Utf8()), attrField("scale", new Float32())]],
          ["flag", new Bool()],
          ["n", new Int16()],
          ["chl", new Float32()],
        ],
        [attrField("id", new Utf8())],
      ),
      { stats: true },
    );
    expect(addedFields(table, after).map((a) => [a.path.join("/"), a.field.name])).toEqual([
      ["sst/attrs/scale", "scale"],
      ["chl", "chl"],
      ["__global_attrs__", "__global_attrs__"],
      ["__stats__:chl", "__stats__:chl"],
    ]);
    expect(addedFields(table, table)).toEqual([]);
  });

  it("a column that gets its first attribute adds the whole attrs struct", () => {
    const after = tableSchema(
      ndSchemaOf([
        ["sst", new Float32(), [attrField("units", new Utf8())]],
        ["flag", new Bool(), [attrField("a", new Utf8())]],
        ["n", new Int16()],
      ]),
    );
    expect(addedFields(table, after).map((a) => a.path.join("/"))).toEqual(["flag/attrs"]);
  });
});
