/**
 * One test per rule of the lance-nd table format v1
 * (packages/format/FORMAT.md), named after its section and rule numbers.
 */
import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  DurationMillisecond,
  type Field,
  Float16,
  Float32,
  Float64,
  Int8,
  LargeUtf8,
  Schema,
  TimeNanosecond,
  TimeSecond,
  TimestampMicrosecond,
  Uint64,
  Utf8,
  Vector,
} from "apache-arrow";
import type { Data, List, Struct } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, encodeSchema } from "@lance-nd/nd-arrow";
import {
  FORMAT_KEY,
  STATS_KEY,
  addedFields,
  checkArrayName,
  columnDefaultsMetadata,
  columnEncoding,
  decodeRows,
  encodeRows,
  ndSchema,
  planWrite,
  quoteFieldPath,
  sqlStringLiteral,
  tableSchema,
  validateTableSchema,
} from "../src/index.js";
import { oceanChunk, stationBatch } from "./datasets.js";
import { formatErrorOf, ndSchemaOf } from "./fixtures.js";

const ocean = oceanChunk("a", 0);
const station = stationBatch(["x", "y", "z"]);

function child(rb: { schema: Schema; data: { children: Data[] } }, name: string): Data {
  const i = rb.schema.fields.findIndex((f) => f.name === name);
  return rb.data.children[i]!;
}

function fieldOf(schema: Schema, name: string): Field {
  const field = schema.fields.find((f) => f.name === name);
  if (field === undefined) throw new Error(`no field ${name}`);
  return field;
}

function statsRows(rb: Parameters<typeof child>[0], variable: string): unknown[] {
  const data = child(rb, `__stats__:${variable}`) as Data<Struct>;
  return [...new Vector([data])].map((row) => (row === null ? null : row.toJSON()));
}

describe("1. Columns", () => {
  it("1.1 the array columns hold the union of the array names of all rows, one value type per name", () => {
    const schema = tableSchema(encodeSchema([ocean, station]));
    expect(schema.fields.map((f) => f.name)).toEqual([
      "sst",
      "lat",
      "lon",
      "time",
      "station",
      "observed",
      "flag",
      "__global_attrs__",
    ]);
    const other = new NdRecordBatch({ sst: NdArray.from(new Float64Array([1]), { dims: { x: 1 } }) });
    const err = formatErrorOf(() => planWrite(schema, encodeSchema([other]), { casting: "no" }), "SchemaMismatch");
    expect(err.column).toBe("sst");
  });

  it("1.2 a null in an array column means that the row does not have that array", () => {
    const schema = tableSchema(encodeSchema([ocean, station]));
    const rb = encodeRows([ocean, station], schema);
    expect(child(rb, "station").getValid(0)).toBe(false);
    const [first, second] = decodeRows(rb);
    expect(first!.names()).toEqual(["sst", "lat", "lon", "time"]);
    expect(second!.names()).toEqual(["station", "observed", "flag"]);
  });

  it("1.3 a null array row has valid empty children", () => {
    const schema = tableSchema(encodeSchema([ocean, station]));
    const rb = encodeRows([station, ocean], schema);
    const sst = child(rb, "sst") as Data<Struct>;
    expect(sst.getValid(0)).toBe(false);
    for (const name of ["values", "dim_names", "dim_sizes"]) {
      const list = sst.children[sst.type.children.findIndex((f) => f.name === name)]! as Data<List>;
      expect(list.getValid(0), name).toBe(true);
      expect(list.valueOffsets[list.offset + 1]! - list.valueOffsets[list.offset]!, name).toBe(0);
    }
  });

  it("1.4 a table without global attributes does not have the __global_attrs__ column", () => {
    expect(tableSchema(encodeSchema([station])).fields.map((f) => f.name)).not.toContain("__global_attrs__");
    expect(tableSchema(encodeSchema([ocean])).fields.map((f) => f.name)).toContain("__global_attrs__");
  });

  it("1.5 the writer makes __global_attrs__ nullable, and a row without global attributes has none", () => {
    const schema = tableSchema(encodeSchema([station, ocean]));
    expect(fieldOf(schema, "__global_attrs__").nullable).toBe(true);
    const later = planWrite(tableSchema(encodeSchema([station])), encodeSchema([ocean]), {});
    expect(later.newGlobalAttrsColumn?.nullable).toBe(true);
    const [first, second] = decodeRows(encodeRows([station, ocean], schema));
    expect(first!.globalAttrs.size).toBe(0);
    expect([...second!.globalAttrs.keys()]).toEqual(["id", "title"]);
  });

  it("1.6 the column order has no meaning", () => {
    const schema = tableSchema(encodeSchema([ocean, station]), { stats: true });
    const reversed = new Schema([...schema.fields].reverse(), schema.metadata);
    expect([...validateTableSchema(reversed).arrays.keys()].sort()).toEqual(
      [...validateTableSchema(schema).arrays.keys()].sort(),
    );
    const rb = encodeRows([ocean, station], reversed);
    expect(rb.schema.fields.map((f) => f.name)).toEqual(reversed.fields.map((f) => f.name));
    expect(decodeRows(rb).map((b) => b.names().sort())).toEqual(
      decodeRows(encodeRows([ocean, station], schema)).map((b) => b.names().sort()),
    );
  });

  it("1.7 the schema metadata holds the format version, the column defaults and the stats marker; array field metadata comes from the first row", () => {
    const first = new NdRecordBatch({
      v: NdArray.from(new Int16Array([1]), { dims: { x: 1 }, metadata: { origin: "first" } }),
    });
    const second = new NdRecordBatch({
      v: NdArray.from(new Int16Array([2]), { dims: { x: 1 }, metadata: { origin: "second" } }),
    });
    const schema = tableSchema(encodeSchema([first, second]), { stats: true, columnDefaults: { compression: "zstd" } });
    expect([...schema.metadata.keys()]).toEqual([
      FORMAT_KEY,
      "lance_nd.column_defaults.lance-encoding:compression",
      STATS_KEY,
    ]);
    expect(fieldOf(schema, "v").metadata.get("origin")).toBe("first");
    // A later write keeps the table's field metadata.
    const plan = planWrite(schema, encodeSchema([second]), {});
    expect(fieldOf(plan.schema, "v").metadata.get("origin")).toBe("first");
  });
});

describe("1. Columns: the grid", () => {
  it("1 the format does not store the grid; a reader infers it from the arrays of the row", () => {
    const schema = tableSchema(encodeSchema([ocean]), { stats: true });
    expect(schema.fields.map((f) => f.name)).toEqual([
      "sst",
      "lat",
      "lon",
      "time",
      "__global_attrs__",
      "__stats__:sst",
      "__stats__:lat",
      "__stats__:lon",
      "__stats__:time",
    ]);
    const [row] = decodeRows(encodeRows([ocean], schema));
    expect(row!.grid()).toEqual([
      { name: "time", size: 2 },
      { name: "lat", size: 3 },
      { name: "lon", size: 4 },
    ]);
  });
});

describe("2. Schema evolution", () => {
  it("2 a write adds array names, attribute keys and global attributes as all-null fields; older rows read them as absent", () => {
    const table = tableSchema(encodeSchema([ocean]), { stats: true });
    const chl = NdArray.from(new Float32Array([0.1, 0.2]), { dims: { time: 2 } });
    const sst = NdArray.from(new Float32Array(24), {
      dims: { time: 2, lat: 3, lon: 4 },
      attrs: { long_name: "sea surface temperature" },
    });
    const incoming = new NdRecordBatch({ sst, chl }, { id: "b", cruise: "X1" });
    const plan = planWrite(table, encodeSchema([incoming]), {});
    expect(addedFields(table, plan.schema).map((a) => a.path.join("."))).toEqual([
      "sst.attrs.long_name",
      "__global_attrs__.cruise",
      "chl",
      "__stats__:chl",
    ]);
    for (const { field } of addedFields(table, plan.schema)) expect(field.nullable, field.name).toBe(true);
    const [old, added] = decodeRows(encodeRows([ocean, incoming], plan.schema));
    expect(old!.names()).toEqual(["sst", "lat", "lon", "time"]);
    expect([...old!.get("sst")!.attrs.keys()]).toEqual(["units", "valid_range"]);
    expect([...old!.globalAttrs.keys()]).toEqual(["id", "title"]);
    expect(added!.names()).toEqual(["sst", "chl"]);
    expect([...added!.globalAttrs.keys()]).toEqual(["id", "cruise"]);
  });
});

describe("1. Columns: no reserved identity column", () => {
  it("1 there is no reserved identity column; an id in the global attributes is filtered as __global_attrs__.id", () => {
    const schema = tableSchema(encodeSchema([ocean]));
    expect(schema.fields.map((f) => f.name)).toEqual(["sst", "lat", "lon", "time", "__global_attrs__"]);
    expect(`${quoteFieldPath(["__global_attrs__", "id"])} = ${sqlStringLiteral("a")}`).toBe(
      "`__global_attrs__`.`id` = 'a'",
    );
  });
});

describe("3. Column encoding", () => {
  it("3 each added column gets the defaults, its own options override them, and it keeps its encoding when the defaults change", () => {
    let table = tableSchema(encodeSchema([ocean]), {
      stats: true,
      columnDefaults: { compression: "zstd", structuralEncoding: "miniblock" },
      columns: { sst: { bss: "on", compression: "lz4" } },
    });
    expect(columnEncoding(fieldOf(table, "sst"))).toEqual({
      compression: "lz4",
      structuralEncoding: "miniblock",
      bss: "on",
    });
    expect(columnEncoding(fieldOf(table, "__stats__:sst"))).toEqual({
      compression: "lz4",
      structuralEncoding: "miniblock",
      bss: "on",
    });
    expect(columnEncoding(fieldOf(table, "lat"))).toEqual({ compression: "zstd", structuralEncoding: "miniblock" });
    // The defaults change: only keys are added to the metadata.
    table = new Schema(
      table.fields,
      new Map([...table.metadata, ...columnDefaultsMetadata({ compression: "none" }, table.metadata)]),
    );
    const chl = NdArray.from(new Float32Array([1]), { dims: { time: 1 } });
    const sst = NdArray.from(new Float32Array(1), { dims: { x: 1 }, attrs: { comment: "new key" } });
    const plan = planWrite(table, encodeSchema([new NdRecordBatch({ sst, chl })]), {});
    expect(columnEncoding(fieldOf(plan.schema, "chl"))).toEqual({ compression: "none" });
    expect(columnEncoding(fieldOf(plan.schema, "sst"))).toEqual({
      compression: "lz4",
      structuralEncoding: "miniblock",
      bss: "on",
    });
    expect(plan.newAttrs[0]!.fields[0]!.metadata.get("lance-encoding:compression")).toBe("lz4");
    // A reader removes the lance-encoding keys from the arrays it returns.
    expect(
      ndSchema(plan.schema).fields.every((f) => [...f.metadata.keys()].every((k) => !k.startsWith("lance-encoding:"))),
    ).toBe(true);
    const [row] = decodeRows(encodeRows([ocean], plan.schema));
    expect([...row!.get("sst")!.metadata.keys()]).toEqual(["source"]);
  });
});

describe("4. Stats", () => {
  it("4.1 a stats column is Struct{min: T, max: T} of the variable's value type, all nullable", () => {
    const schema = tableSchema(encodeSchema([ocean]), { stats: true });
    const stats = fieldOf(schema, "__stats__:time");
    expect(stats.nullable).toBe(true);
    expect((stats.type as Struct).children.map((c) => [c.name, String(c.type), c.nullable])).toEqual([
      ["min", "Timestamp<SECOND, UTC>", true],
      ["max", "Timestamp<SECOND, UTC>", true],
    ]);
  });

  it("4.2 integer, float, string, timestamp, date, time and duration variables get a stats column, others none", () => {
    const types = {
      i8: new Int8(),
      u64: new Uint64(),
      f16: new Float16(),
      f64: new Float64(),
      s: new Utf8(),
      ls: new LargeUtf8(),
      ts: new TimestampMicrosecond("UTC"),
      d32: new DateDay(),
      d64: new DateMillisecond(),
      t32: new TimeSecond(),
      t64: new TimeNanosecond(),
      dur: new DurationMillisecond(),
      b: new Bool(),
      bin: new Binary(),
    };
    const schema = tableSchema(ndSchemaOf(Object.entries(types).map(([name, type]) => [name, type] as const)), {
      stats: true,
    });
    const withStats = schema.fields
      .filter((f) => f.name.startsWith("__stats__:"))
      .map((f) => f.name.slice("__stats__:".length));
    expect(withStats).toEqual(Object.keys(types).filter((name) => name !== "b" && name !== "bin"));
  });

  it("4.3 min and max are the smallest and largest value of the row; nulls and NaN do not count; strings order by UTF-8 bytes", () => {
    const v = NdArray.from([3.5, null, NaN, -2, 7], { dims: { x: 5 }, type: new Float64() });
    const s = NdArray.from(["b", "é", "Z", null], { dims: { y: 4 }, type: new Utf8() });
    const batch = new NdRecordBatch({ v, s });
    const rb = encodeRows([batch], tableSchema(encodeSchema([batch]), { stats: true }));
    expect(statsRows(rb, "v")).toEqual([{ min: -2, max: 7 }]);
    expect(statsRows(rb, "s")).toEqual([{ min: "Z", max: "é" }]);
  });

  it("4.4 a null stats row means that the row does not have the variable", () => {
    const schema = tableSchema(encodeSchema([ocean, station]), { stats: true });
    const rb = encodeRows([ocean, station], schema);
    expect(statsRows(rb, "station")).toEqual([null, { min: "x", max: "z" }]);
    expect(statsRows(rb, "sst")[1]).toBeNull();
  });

  it("4.5 a valid stats row with null min and max means the row has the variable but no value counts", () => {
    const v = NdArray.from([NaN, null], { dims: { x: 2 }, type: new Float32() });
    const batch = new NdRecordBatch({ v });
    const rb = encodeRows([batch], tableSchema(encodeSchema([batch]), { stats: true }));
    expect(statsRows(rb, "v")).toEqual([{ min: null, max: null }]);
  });

  it("4.6 a stats column is added in the same change as its variable", () => {
    const table = tableSchema(encodeSchema([ocean]), { stats: true });
    const chl = NdArray.from(new Float32Array([1]), { dims: { time: 1 }, attrs: { units: "mg" } });
    const lat = NdArray.from(new Float32Array([1]), { dims: { lat: 1 }, attrs: { axis: "Y" } });
    const plan = planWrite(table, encodeSchema([new NdRecordBatch({ chl, lat })]), {});
    expect(plan.newColumns.map((c) => [c.column.name, c.stats?.name])).toEqual([["chl", "__stats__:chl"]]);
    // A stats column never gets new children: new attribute keys change the variable only.
    expect(addedFields(table, plan.schema).map((a) => a.path.join("."))).toEqual([
      "lat.attrs.axis",
      "chl",
      "__stats__:chl",
    ]);
    // A Bool variable has no stats; widening it to an integer adds its stats column in the widening.
    const flags = tableSchema(encodeSchema([station]), { stats: true });
    const ints = new NdRecordBatch({ flag: NdArray.from(new Int8Array([1, 2]), { dims: { station: 2 } }) });
    const widened = planWrite(flags, encodeSchema([ints]), { casting: "promote" });
    expect(widened.widenings.map((w) => [w.column, String(w.from), String(w.to), w.statsColumn?.name])).toEqual([
      ["flag", "Bool", "Int8", "__stats__:flag"],
    ]);
    expect(validateTableSchema(widened.schema).statsColumns.has("flag")).toBe(true);
  });

  it("4.7 each name that starts with __stats__ is reserved, and a reader leaves the stats columns out", () => {
    expect(formatErrorOf(() => checkArrayName("__stats__:sst"), "ReservedName").column).toBe("__stats__:sst");
    const schema = tableSchema(encodeSchema([ocean]), { stats: true });
    expect(ndSchema(schema).fields.map((f) => f.name)).toEqual(["sst", "lat", "lon", "time", "__global_attrs__"]);
    const [row] = decodeRows(encodeRows([ocean], schema));
    expect(row!.names()).toEqual(["sst", "lat", "lon", "time"]);
  });

  it("4.8 a writer adds stats to each row when the table has the key, and only the create sets the key", () => {
    const withStats = tableSchema(encodeSchema([ocean]), { stats: true });
    expect(withStats.metadata.get(STATS_KEY)).toBe("true");
    expect(statsRows(encodeRows([ocean, ocean], withStats), "lat")).toEqual([
      { min: -10, max: 10 },
      { min: -10, max: 10 },
    ]);
    const without = tableSchema(encodeSchema([ocean]));
    expect(without.metadata.has(STATS_KEY)).toBe(false);
    const plan = planWrite(without, encodeSchema([station]), { stats: true });
    expect(plan.schema.metadata.has(STATS_KEY)).toBe(false);
    expect(plan.newColumns.every((c) => c.stats === null)).toBe(true);
  });
});

describe("5. Format version", () => {
  it("5 a reader rejects a table without lance_nd:format or with another version; a writer sets it", () => {
    const schema = tableSchema(encodeSchema([ocean]));
    expect(schema.metadata.get(FORMAT_KEY)).toBe("1");
    expect(validateTableSchema(schema).formatVersion).toBe(1);
    const without = new Schema(schema.fields, new Map());
    expect(formatErrorOf(() => validateTableSchema(without), "InvalidTable").message).toContain("lance_nd:format");
    const v2 = new Schema(schema.fields, new Map([[FORMAT_KEY, "2"]]));
    expect(formatErrorOf(() => validateTableSchema(v2), "InvalidTable").message).toContain('version "2"');
    expect(formatErrorOf(() => ndSchema(without), "InvalidTable").code).toBe("InvalidTable");
  });
});
