import { Field, Float32, Float64, Int16, Int32, Int64, Schema, Uint16, Uint8, Utf8 } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import {
  addedFields,
  decodeRows,
  describeSchema,
  encodeRows,
  planWrite,
  tableSchema,
  validateTableSchema,
  type CastingMode,
  type WritePlan,
} from "../src/index.js";
import { attrField, formatErrorOf, listOf, ndSchemaOf } from "./fixtures.js";

const table = tableSchema(
  ndSchemaOf(
    [["sst", new Float32(), [attrField("scale", new Float64()), attrField("range", listOf(new Float32()))]]],
    [attrField("id", new Utf8()), attrField("n", new Int32())],
  ),
  { stats: true },
);

function values(type: DataType, attrs: Field[] = [], global: Field[] = []): Schema {
  return ndSchemaOf([["sst", type, attrs]], global);
}

function castsOf(plan: WritePlan): string[] {
  return plan.casts.map((c) => `${c.column} ${JSON.stringify(c.target)} ${String(c.from)} -> ${String(c.to)}`);
}

describe("planWrite: values under each casting mode", () => {
  const cases: Array<[CastingMode, DataType, "same" | "cast" | "widen" | "mismatch"]> = [
    ["no", new Float32(), "same"],
    ["no", new Int16(), "mismatch"],
    ["no", new Float64(), "mismatch"],
    ["safe", new Int16(), "cast"],
    ["safe", new Float64(), "mismatch"],
    ["safe", new Utf8(), "mismatch"],
    ["same_kind", new Float64(), "cast"],
    ["same_kind", new Int64(), "cast"],
    ["same_kind", new Utf8(), "mismatch"],
    ["promote", new Uint8(), "cast"],
    ["promote", new Float64(), "widen"],
    ["promote", new Int32(), "widen"],
    ["promote", new Utf8(), "mismatch"],
  ];
  for (const [casting, incoming, expected] of cases) {
    it(`Float32 table, ${String(incoming)} rows, ${casting}: ${expected}`, () => {
      if (expected === "mismatch") {
        const err = formatErrorOf(() => planWrite(table, values(incoming), { casting }), "SchemaMismatch");
        expect([err.column, err.key, String(err.from), String(err.to), err.casting]).toEqual([
          "sst",
          undefined,
          String(incoming),
          "Float32",
          casting,
        ]);
        expect(err.message).toContain(`variable "sst"`);
        expect(err.message).toContain(`"${casting}"`);
        return;
      }
      const plan = planWrite(table, values(incoming), { casting });
      if (expected === "same") expect(plan.casts).toEqual([]);
      if (expected === "cast") {
        expect(castsOf(plan)).toEqual([`sst "values" ${String(incoming)} -> Float32`]);
        expect(plan.widenings).toEqual([]);
      }
      if (expected === "widen") {
        expect(plan.widenings.map((w) => [w.column, String(w.from), String(w.to), w.statsColumn?.name])).toEqual([
          ["sst", "Float32", "Float64", "__stats__:sst"],
        ]);
        const layout = validateTableSchema(plan.schema);
        expect(String(layout.arrays.get("sst")!.valueType)).toBe("Float64");
        expect(String(layout.statsColumns.get("sst")!.type)).toBe("Struct<{min:Float64, max:Float64}>");
        expect(castsOf(plan)).toEqual(
          String(incoming) === "Float64" ? [] : [`sst "values" ${String(incoming)} -> Float64`],
        );
      }
    });
  }

  it("the default casting is no", () => {
    formatErrorOf(() => planWrite(table, values(new Int16())), "SchemaMismatch");
  });

  it("an unknown casting mode is InvalidInput", () => {
    expect(
      formatErrorOf(() => planWrite(table, values(new Float32()), { casting: "unsafe" as CastingMode }), "InvalidInput")
        .message,
    ).toContain('"no", "safe", "same_kind" or "promote"');
  });
});

describe("planWrite: attributes follow safe casting in every mode", () => {
  it("a safe attribute cast is planned even with casting no", () => {
    const plan = planWrite(table, values(new Float32(), [attrField("scale", new Float32())]), { casting: "no" });
    expect(castsOf(plan)).toEqual([`sst {"attr":"scale"} Float32 -> Float64`]);
  });

  it("a list attribute casts item by item", () => {
    const plan = planWrite(table, values(new Float32(), [attrField("range", listOf(new Int16()))]), {});
    expect(castsOf(plan)).toEqual([`sst {"attr":"range"} List<Int16> -> List<Float32>`]);
  });

  it("an unsafe attribute cast is a SchemaMismatch naming the key, even under promote", () => {
    const err = formatErrorOf(
      () => planWrite(table, values(new Float32(), [attrField("scale", new Utf8())]), { casting: "promote" }),
      "SchemaMismatch",
    );
    expect([err.column, err.key, String(err.from), String(err.to), err.casting]).toEqual([
      "sst",
      "scale",
      "Utf8",
      "Float64",
      "safe",
    ]);
    expect(err.message).toContain('variable "sst" attribute "scale"');
  });

  it("a scalar attribute in one write and a list in another is never cast", () => {
    const err = formatErrorOf(
      () => planWrite(table, values(new Float32(), [attrField("range", new Float32())]), {}),
      "SchemaMismatch",
    );
    expect(err.key).toBe("range");
    expect(err.message).toContain("a scalar and a list never cast");
  });

  it("global attributes follow safe casting and name the key", () => {
    const plan = planWrite(table, values(new Float32(), [], [attrField("n", new Uint16())]), {});
    expect(castsOf(plan)).toEqual([`__global_attrs__ {"globalAttr":"n"} Uint16 -> Int32`]);
    const err = formatErrorOf(
      () => planWrite(table, values(new Float32(), [], [attrField("n", new Float64())]), {}),
      "SchemaMismatch",
    );
    expect([err.column, err.key]).toEqual(["__global_attrs__", "n"]);
    expect(err.message).toContain('global attribute "n"');
  });
});

describe("planWrite: what the write adds", () => {
  it("new attribute keys and global attribute keys are listed and appended to their columns", () => {
    const plan = planWrite(
      table,
      values(new Float32(), [attrField("units", new Utf8())], [attrField("cruise", new Utf8())]),
      {},
    );
    expect(plan.newAttrs.map((a) => [a.column, a.fields.map((f) => f.name)])).toEqual([["sst", ["units"]]]);
    expect(plan.newGlobalAttrs.map((f) => f.name)).toEqual(["cruise"]);
    expect(plan.newColumns).toEqual([]);
    const layout = validateTableSchema(plan.schema);
    expect(layout.arrays.get("sst")!.attrFields.map((f) => f.name)).toEqual(["scale", "range", "units"]);
    expect((layout.globalAttrs!.type.children as Field[]).map((f) => f.name)).toEqual(["id", "n", "cruise"]);
  });

  it("7. an attrs struct added after creation is nullable (older rows read it as null); a new table's attrs is not", () => {
    const bare = tableSchema(ndSchemaOf([["sst", new Float32()]]), { stats: true });
    const first = planWrite(bare, values(new Float32(), [attrField("units", new Utf8())]), {});
    const sst = validateTableSchema(first.schema).arrays.get("sst")!;
    expect(sst.attrsNullable).toBe(true);
    expect(addedFields(bare, first.schema).map((a) => [a.path.join("/"), a.field.nullable])).toEqual([
      ["sst/attrs", true],
    ]);
    const more = planWrite(
      first.schema,
      values(new Float32(), [attrField("units", new Utf8()), attrField("scale", new Float64())]),
      {},
    );
    expect(validateTableSchema(more.schema).arrays.get("sst")!.attrsNullable).toBe(true);
    const widened = planWrite(first.schema, values(new Float64(), [attrField("units", new Utf8())]), {
      casting: "promote",
    });
    expect(validateTableSchema(widened.schema).arrays.get("sst")!.attrsNullable).toBe(true);
    expect(validateTableSchema(table).arrays.get("sst")!.attrsNullable).toBe(false);
    expect(
      validateTableSchema(
        planWrite(table, values(new Float32(), [attrField("units", new Utf8())]), {}).schema,
      ).arrays.get("sst")!.attrsNullable,
    ).toBe(false);
    const rows = [
      new NdRecordBatch({ sst: NdArray.from(new Float32Array([1]), { dims: {}, attrs: { units: "K" } }) }),
      new NdRecordBatch({ sst: NdArray.from(new Float32Array([2]), { dims: {} }) }),
    ];
    const back = decodeRows(encodeRows(rows, first.schema));
    expect(back[0]!.get("sst")!.attr("units")).toBe("K");
    expect(back[1]!.get("sst")!.attrs.size).toBe(0);
  });

  it("a write without changes keeps the table schema", () => {
    const plan = planWrite(table, values(new Float32()), {});
    expect(describeSchema(plan.schema)).toBe(describeSchema(table));
  });

  it("a new table: everything is new, nothing is cast", () => {
    const plan = planWrite(
      null,
      values(new Float32(), [attrField("units", new Utf8())], [attrField("id", new Utf8())]),
      {
        stats: true,
        columnDefaults: { compression: "zstd" },
      },
    );
    expect(plan.newColumns.map((c) => [c.column.name, c.stats?.name])).toEqual([["sst", "__stats__:sst"]]);
    expect(plan.newGlobalAttrsColumn?.name).toBe("__global_attrs__");
    expect(plan.casts).toEqual([]);
    expect(validateTableSchema(plan.schema).columnDefaults).toEqual({ compression: "zstd" });
  });

  it("the write's columnDefaults and columns options apply to the columns it adds", () => {
    const plan = planWrite(
      table,
      ndSchemaOf([
        ["chl", new Float32()],
        ["o2", new Float32()],
      ]),
      {
        columnDefaults: { compression: "lz4" },
        columns: { o2: { bss: "on" } },
      },
    );
    const meta = (name: string): string[] =>
      [
        ...(plan.newColumns.find((c) => c.column.name === name)!.column.type.children[0]!.type.children[0]!
          .metadata as Map<string, string>),
      ].map(([k, v]) => `${k}=${v}`);
    expect(meta("chl")).toEqual(["lance-encoding:compression=lz4"]);
    expect(meta("o2")).toEqual(["lance-encoding:compression=lz4", "lance-encoding:bss=on"]);
  });

  it("bad options are InvalidInput naming the option", () => {
    const err = formatErrorOf(
      () => planWrite(table, values(new Float32()), { columns: { sst: { bss: "yes" as "on" } } }),
      "InvalidInput",
    );
    expect(err.message).toContain("columns.sst.bss");
  });

  it("an incoming schema with a reserved or non-nd column is rejected", () => {
    formatErrorOf(() => planWrite(table, new Schema([new Field("x", new Int32(), true)]), {}), "InvalidInput");
  });
});
