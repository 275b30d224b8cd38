// Every lance-nd operation on a branch handle acts on the branch and never
// changes main (README.md, "Version control").
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import {
  Field,
  Float64,
  Int32,
  Int64,
  RecordBatch,
  Schema,
  Utf8,
  vectorFromArray,
  makeData,
  Struct,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import { columnDefaults, setColumnDefaults } from "../../src/write/column-defaults.js";
import { dataset } from "../../src/dataset/dataset.js";
import { scan } from "../../src/read/scan.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { append, write } from "../../src/write/write.js";
import { NdWriter } from "../../src/write/writer.js";
import { sstBatch, writeChunked } from "../dataset/fixture.js";
import { tempDir } from "../helpers/make-table.js";
import { recordSpans } from "../helpers/span-recorder.js";
import { openTable, overwriteTable } from "../../src/lance/table-open.js";
import { readTableSchema } from "../../src/lance/table-read.js";
import { readIds, readRows } from "../helpers/write-rows.js";

const dir = tempDir("branch-ops");
const spans = recordSpans();
let count = 0;
const fresh = (): string => path.join(dir, `b${count++}.lance`);

/** Row `i`: `v` Int32 [x 3] with values 10*i + j, global attr id "r<i>". */
function intRow(i: number): NdRecordBatch {
  return new NdRecordBatch(
    { v: NdArray.from([10 * i, 10 * i + 1, 10 * i + 2], { dims: { x: 3 }, type: new Int32() }) },
    { id: `r${i}` },
  );
}

/** What a reader of main sees: version, schema, column defaults and rows. */
async function mainState(uri: string): Promise<unknown> {
  const main = await open(uri);
  return {
    version: await main.version(),
    versions: (await main.versions()).map((v) => v.version),
    schema: main.tableSchema.fields.map((f) => `${f.name}: ${String(f.type)}`),
    defaults: await columnDefaults(main),
    rows: (await readRows(main)).map((r) => [r.globalAttr("id"), Array.from(r.get("v")?.values ?? [])]),
  };
}

describe("operations on a branch handle", () => {
  it("append, NdWriter, a new variable, delete, setColumnDefaults, restore and compact change the branch only", async () => {
    const uri = fresh();
    await write(uri, [intRow(0), intRow(1)], { stats: true });
    const before = await mainState(uri);
    const b = await (await open(uri)).createBranch("work");

    await append(b, [intRow(2)]);
    const writer = await NdWriter.append(b);
    await writer.write(
      new NdRecordBatch(
        {
          v: NdArray.from([1, 2, 3], { dims: { x: 3 }, type: new Int32() }),
          extra: NdArray.from(Float64Array.of(0.5), { dims: { one: 1 } }),
        },
        { id: "w" },
      ),
    );
    await writer.finish();
    expect(await readIds(b)).toEqual(["r0", "r1", "r2", "w"]);
    expect((await b.delete("__global_attrs__.id = 'r0'")).deleted).toBe(1);
    await setColumnDefaults(b, { compression: "zstd" });
    expect(await columnDefaults(b)).toMatchObject({ compression: "zstd" });
    const afterDelete = await b.version();
    await b.delete("__global_attrs__.id = 'r1'");
    await b.restore(afterDelete);
    expect(await readIds(b)).toEqual(["r1", "r2", "w"]);
    await b.compact();
    expect(await readIds(b)).toEqual(["r1", "r2", "w"]);
    expect(b.ndSchema.fields.map((f) => f.name)).toContain("extra");
    const rows = await scan(b).toArray();
    expect(rows.map((r) => r.globalAttr("id")).sort()).toEqual(["r1", "r2", "w"]);

    expect(await mainState(uri)).toEqual(before);
    expect(await readIds(await open(uri, { branch: "work" }))).toEqual(["r1", "r2", "w"]);
  });

  it("widen in place (Int32 -> Int64) and by a rewrite (Int64 -> Float64: a branch-scoped overwrite that changes the schema)", async () => {
    const uri = fresh();
    await write(uri, [intRow(0), intRow(1)], { stats: true });
    const before = await mainState(uri);
    const b = await (await open(uri)).createBranch("wide");
    await append(b, [intRow(2)]);
    await widen(b, "v", new Int64());
    await widen(b, "v", new Float64());
    expect(spans.filter((s) => s.name === "lance_nd.widen").map((s) => s.attributes["lance_nd.widen.path"])).toEqual([
      "in_place",
      "rewrite",
    ]);
    expect(String(b.ndSchema.fields.find((f) => f.name === "v")!.type)).toMatch(/Float64/);
    const got = (await readRows(b)).map((r) => [r.globalAttr("id"), Array.from(r.get("v")!.values)]).sort();
    expect(got).toEqual([
      ["r0", [0, 1, 2]],
      ["r1", [10, 11, 12]],
      ["r2", [20, 21, 22]],
    ]);
    // the reopened branch is still a valid lance-nd table, with its new type
    const reopened = await open(uri, { branch: "wide" });
    expect(String(reopened.ndSchema.fields.find((f) => f.name === "v")!.type)).toMatch(/Float64/);
    await append(reopened, [
      new NdRecordBatch({ v: NdArray.from(Float64Array.of(0.5, 1.5, 2.5), { dims: { x: 3 } }) }, { id: "f" }),
    ]);
    expect(await readIds(reopened)).toEqual(["f", "r0", "r1", "r2"]);
    expect(await mainState(uri)).toEqual(before);
  });

  it("dataset reads the branch's rows; cleanup on the branch keeps main and the fork version", async () => {
    const uri = fresh();
    const main = await writeChunked(uri, sstBatch("a.nc"), { time: 6 });
    const b = await main.createBranch("more");
    await append(b, [sstBatch("b.nc")]);
    const onBranch = await dataset(b, { where: "__global_attrs__.id = 'b.nc'" });
    expect((await onBranch.read(["sst"])).get("sst")!.shape).toEqual([12, 10, 8]);
    const onMain = await dataset(await open(uri), {});
    expect(onMain.chunkCount).toBe(2);
    const before = await mainState(uri);
    await b.cleanupOldVersions({ olderThan: 0 });
    expect(await mainState(uri)).toEqual(before);
    expect(
      (await dataset(await open(uri, { branch: "more" }), { where: "__global_attrs__.id = 'b.nc'" })).chunkCount,
    ).toBe(1);
  });

  it("a branch-scoped overwrite can change the schema (a new column, another type); main keeps its own (SDK-NOTES.md, section 15)", async () => {
    const uri = fresh();
    await write(uri, [intRow(0)]);
    await (await open(uri)).createBranch("raw");
    const onBranch = await openTable(uri, { branch: "raw" });
    const schema = new Schema(
      [new Field("a", new Float64(), true), new Field("b", new Utf8(), true)],
      new Map([["k", "v"]]),
    );
    const children = [vectorFromArray([1.5], new Float64()).data[0]!, vectorFromArray(["x"], new Utf8()).data[0]!];
    const rows = new RecordBatch(
      schema,
      makeData({ type: new Struct(schema.fields), length: 1, nullCount: 0, children }),
    );
    const mainBefore = await readTableSchema((await open(uri)).lance);
    await overwriteTable(onBranch, schema, [rows]);
    const after = await readTableSchema(await openTable(uri, { branch: "raw" }));
    expect(after.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(["a: Float64", "b: Utf8"]);
    expect(after.metadata.get("k")).toBe("v");
    expect(await readTableSchema((await open(uri)).lance)).toEqual(mainBefore);
  });
});
