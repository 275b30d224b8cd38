import { execFile } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { Float64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { append, write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { readIds, readRows, sstRow, sstRows } from "../helpers/write-rows.js";

const run = promisify(execFile);
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = tempDir("concurrency");

describe("concurrent writers", () => {
  it("appends from two processes at once lose nothing: all 2N rows are there exactly once", async () => {
    const uri = path.join(dir, "procs.lance");
    await write(uri, []);
    const n = 6;
    const child = (tag: string) =>
      run(
        process.execPath,
        ["--conditions=@lance-nd/source", "--import", "tsx", "test/helpers/append-child.ts", uri, String(n), tag],
        { cwd: packageDir },
      );
    await Promise.all([child("a"), child("b")]);
    const ids = await readIds(await open(uri));
    const expected = ["a", "b"].flatMap((tag) => Array.from({ length: n }, (_, i) => `${tag}-${i}`)).sort();
    expect(ids).toEqual(expected);
  });

  it("appends through two handles that each add a new variable are retried after the other's schema change", async () => {
    const uri = path.join(dir, "handles.lance");
    await write(uri, sstRows(1));
    const [one, two] = [await open(uri), await open(uri)];
    const withVariable = (name: string, i: number) =>
      new NdRecordBatch(
        { [name]: NdArray.from(new Float32Array([i, i]), { dims: { lat: 2 } }) },
        { id: `${name}-${i}` },
      );
    await Promise.all([
      append(one, [withVariable("u", 0)]).then(() => append(one, [withVariable("u", 1)])),
      append(two, [withVariable("v", 0)]).then(() => append(two, [withVariable("v", 1)])),
      append(one, [sstRow(7)]),
    ]);
    const table = await open(uri);
    expect([...table.layout.arrays.keys()].sort()).toEqual(["sst", "u", "v"]);
    expect((await readRows(table)).map((r) => String(r.globalAttr("id"))).sort()).toEqual([
      "r0",
      "r7",
      "u-0",
      "u-1",
      "v-0",
      "v-1",
    ]);
  });

  it("a widen and appends through other handles at the same time: every row is there, with the wider type", async () => {
    const uri = path.join(dir, "widen.lance");
    await write(uri, sstRows(2), { stats: true });
    const [one, two] = [await open(uri), await open(uri)];
    await Promise.all([
      widen(one, "sst", new Float64()),
      append(two, [sstRow(2)], { casting: "safe" }).then(() => append(two, [sstRow(3)], { casting: "safe" })),
    ]);
    const table = await open(uri);
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
    const rows = await readRows(table);
    expect(rows.map((r) => String(r.globalAttr("id"))).sort()).toEqual(["r0", "r1", "r2", "r3"]);
    expect(rows.map((r) => Array.from(r.get("sst")!.toArray())[5])).toEqual([5, 15, 25, 35]);
  });
});
