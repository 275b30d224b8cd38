import * as path from "node:path";
import { Float32, Float64, Int16, Int32, Int64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { scanRows } from "../src/lance/table-read.js";
import { widen } from "../src/widen.js";
import { write } from "../src/write.js";
import { tempDir } from "./helpers/make-table.js";
import { recordSpans } from "./helpers/span-recorder.js";
import { failure, readRows, sstRow } from "./helpers/write-rows.js";

const spans = recordSpans();
const dir = tempDir("widen");
let tables = 0;
const fresh = (): string => path.join(dir, `w${tables++}.lance`);

describe("widen", () => {
  it("Float32 -> Float64 changes the variable and its stats column; values, attributes, field metadata and encoding stay", async () => {
    const uri = fresh();
    const row = sstRow(0, { values: [0.5, 1, 2, 3, 4, 5] });
    const sst = row.get("sst")!.withMetadata({ mine: "x" });
    const table = await write(uri, [row.withArrays({ sst })], { stats: true, columnDefaults: { compression: "zstd" } });
    spans.length = 0;
    const version = await widen(table, "sst", new Float64());
    expect(version).toBeGreaterThan(1);
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
    expect(String(table.layout.statsColumns.get("sst")!.type)).toBe("Struct<{min:Float64, max:Float64}>");
    const field = table.tableSchema.fields.find((f) => f.name === "sst")!;
    expect(field.metadata.get("mine")).toBe("x");
    expect(field.type.children[0]!.type.children[0]!.metadata.get("lance-encoding:compression")).toBe("zstd");
    const [back] = await readRows(table);
    expect(Array.from(back!.get("sst")!.toArray())).toEqual([0.5, 1, 2, 3, 4, 5]);
    expect(back!.get("sst")!.attr("units")).toBe("K");
    const stats = [];
    for await (const rb of scanRows(table.lance, { columns: ["__stats__:sst"] })) stats.push(rb.getChild("__stats__:sst")!.get(0)!.toJSON());
    expect(stats).toEqual([{ min: 0.5, max: 5 }]);
    expect(spans.filter((s) => s.name === "lance_nd.widen").map((s) => s.attributes["lance_nd.table.uri"])).toEqual([uri]);
  });

  it("a type that does not hold each old value (Float64 -> Float32) fails with SchemaMismatch; the table stays", async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Float64() })]);
    expect(await failure(widen(table, "sst", new Float32()))).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(await table.version()).toBe(1);
  });

  it("across kinds (Int32 -> Float64) fails with SchemaMismatch: Lance 12 casts nested fields within a kind only", async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int32() })], { stats: true });
    const err = await failure(widen(table, "sst", new Float64()));
    expect(err).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(err.message).toMatch(/within a kind/);
    expect(await table.version()).toBe(1);
    expect(Array.from((await readRows(table))[0]!.get("sst")!.toArray())).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("a second widen of a variable fails with SchemaMismatch (Lance casts a nested field once); the table stays", async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int16() })]);
    await widen(table, "sst", new Int32());
    const version = await table.version();
    const err = await failure(widen(table, "sst", new Int64()));
    expect(err).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(err.message).toMatch(/once/);
    expect(await table.version()).toBe(version);
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Int32");
  });

  it("widening to the current type does nothing", async () => {
    const table = await write(fresh(), [sstRow(0)]);
    expect(await widen(table, "sst", new Float32())).toBe(1);
  });

  it("an unknown variable fails with InvalidInput", async () => {
    const table = await write(fresh(), [sstRow(0)]);
    expect(await failure(widen(table, "nope", new Float64()))).toMatchObject({ code: "InvalidInput", column: "nope" });
  });
});
