import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { Float64 } from "apache-arrow";
import { widen } from "../../src/widen/widen.js";
import { open } from "../../src/table.js";
import { variables } from "../../src/read/variables.js";
import { appendTo, makeTable, tempDir } from "../helpers/make-table.js";

const dir = tempDir("variables");

describe("variables", () => {
  it("lists each array column with its value type, attribute keys and types, and stats", async () => {
    const sst = NdArray.from(new Float32Array(2), {
      dims: { x: 2 },
      attrs: { units: "K", valid_range: attr.float32([270, 310]) },
    });
    const flag = NdArray.from([true, false], { dims: { x: 2 } });
    const t = await makeTable(path.join(dir, "v.lance"), [new NdRecordBatch({ sst, flag }, { id: "a" })], {
      stats: true,
    });
    const list = await variables(t);
    expect(list.map((v) => [v.name, String(v.valueType), v.hasStats])).toEqual([
      ["sst", "Float32", true],
      ["flag", "Bool", false],
    ]);
    expect(list[0]!.attrs.map((a) => [a.key, String(a.type)])).toEqual([
      ["units", "Utf8"],
      ["valid_range", "List<Float32>"],
    ]);
    expect(list[1]!.attrs).toEqual([]);
  });

  it("sees variables another handle added; a checked-out view lists its version's", async () => {
    const uri = path.join(dir, "evolve.lance");
    const t = await makeTable(uri, [new NdRecordBatch({ a: NdArray.from(new Int32Array(1), { dims: { x: 1 } }) })]);
    const v1 = await t.version();
    await appendTo(await open(uri), [new NdRecordBatch({ b: NdArray.from(new Float64Array(1), { dims: { x: 1 } }) })]);
    expect((await variables(t)).map((v) => v.name)).toEqual(["a", "b"]);
    expect((await variables(await t.checkout(v1))).map((v) => v.name)).toEqual(["a"]);
  });

  it("a handle that listed its variables sees each change another handle makes after it", async () => {
    // The schema is re-read only when the version moved: every change must move it.
    const uri = path.join(dir, "watch.lance");
    const t = await makeTable(uri, [new NdRecordBatch({ v0: NdArray.from(new Int32Array(1), { dims: { x: 1 } }) })]);
    const other = await open(uri);
    for (let i = 1; i <= 5; i++) {
      expect((await variables(t)).map((v) => v.name)).toHaveLength(i);
      await appendTo(other, [new NdRecordBatch({ [`v${i}`]: NdArray.from(new Int16Array(1), { dims: { x: 1 } }) })]);
      await widen(other, `v${i}`, new Float64());
      const listed = await variables(t);
      expect(listed.map((v) => v.name)).toEqual(Array.from({ length: i + 1 }, (_, j) => `v${j}`));
      expect(String(listed[i]!.valueType)).toBe("Float64");
    }
  });
});
