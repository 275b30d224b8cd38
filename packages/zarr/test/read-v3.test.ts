import { join } from "node:path";
import { assemble } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { openZarr } from "../src/index.js";
import { fixtureStores, skipOracle } from "./python-oracle.js";
import { expectLayout } from "./expect-layout.js";
import { spelledAttrs, spelledValues } from "./spelled.js";

interface Expected {
  dims: string[];
  shape: number[];
  values: unknown[];
}

const out = fixtureStores<Record<string, Expected>>("v3_spec_stores.py", "lance-nd-zarr-v3-");

describe.skipIf(skipOracle)("openZarr on v3 stores written from the spec", () => {
  for (const store of ["group.zarr", "consolidated.zarr"]) {
    it(`${store}: group attributes, dims from dimension_names, values (fill values in missing chunks and empty inner chunks)`, async () => {
      const zarr = await openZarr(join(out.dir, store), { id: "by-hand" });
      expect(zarr.format).toBe(3);
      expect(zarr.consolidated).toBe(store === "consolidated.zarr");
      expect(spelledAttrs(zarr.globalAttrs)).toEqual({
        title: "v3 by hand",
        answer: 42,
        id: "by-hand",
      });
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect([...zarr.dims].sort(byName)).toEqual([
        { name: "t", size: 4 },
        { name: "w", size: 3 },
        { name: "x", size: 6 },
        { name: "y", size: 4 },
        { name: "z", size: 8 },
      ]);
      expect(zarr.variables.map((v) => v.name).sort()).toEqual(["count", "flags", "sharded", "temp", "when"]);
      expect(String(zarr.variable("when").type)).toBe("Timestamp<SECOND>");
      for (const [name, want] of Object.entries(out.expected).filter(([n]) => n !== "single" && !n.includes("/"))) {
        const got = await zarr.read(name);
        expectLayout(got, want, name);
        const values =
          name === "when"
            ? Array.from(got.values as Iterable<unknown>, (v) => (v === null ? null : Number(v) / 1000))
            : spelledValues(got);
        expect(values, name).toEqual(want.values);
      }
      const sharded = zarr.variable("sharded");
      expect([sharded.shards, sharded.chunks]).toEqual([
        [2, 8],
        [2, 4],
      ]);
      expect(String(sharded.type)).toBe("Int32");
      expect(sharded.attrs.get("long_name")?.toJS()).toBe("sharded by hand");
      expect(String(zarr.variable("temp").attrs.get("valid_range")?.type)).toBe("List<Float32>");
    });
  }

  it("a window of a sharded array reads across shards and inner chunks", async () => {
    const zarr = await openZarr(join(out.dir, "group.zarr"));
    const part = await zarr.read("sharded", { y: [1, 3], z: [2, 6] });
    const all = out.expected.sharded!.values as number[];
    const want = [1, 2].flatMap((y) => [2, 3, 4, 5].map((z) => all[y * 8 + z]));
    expect([...(part.toArray() as Int32Array)]).toEqual(want);
  });

  it("chunks(): small storage blocks merge into one row; { y: 2 } cuts two rows whose chunk_offsets assemble the store", async () => {
    const zarr = await openZarr(join(out.dir, "group.zarr"));
    const rows: NdRecordBatch[] = [];
    for await (const row of zarr.chunks()) rows.push(row);
    expect(rows.map((r) => r.globalAttr("chunk_offset"))).toEqual([[0, 0, 0, 0, 0]]);
    const cut: NdRecordBatch[] = [];
    for await (const row of zarr.chunks({ y: 2 })) cut.push(row);
    const yAt = cut[0]!.grid().findIndex((d) => d.name === "y");
    expect(cut.map((r) => (r.globalAttr("chunk_offset") as number[])[yAt])).toEqual([0, 2]);
    expect(cut.map((r) => (r.globalAttr("chunk_offset") as number[]).filter((_, i) => i !== yAt))).toEqual([
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(cut.map((r) => r.get("sharded")!.shape)).toEqual([
      [2, 8],
      [2, 8],
    ]);
    const whole = assemble(cut);
    for (const name of ["temp", "sharded", "count", "flags"]) {
      expect(spelledValues(whole.get(name)!), name).toEqual(out.expected[name]!.values);
    }
  });

  it("single.zarr: the root array is one variable named after the store, dims dim_<i>", async () => {
    const zarr = await openZarr(join(out.dir, "single.zarr"));
    expect(zarr.variables.map((v) => [v.name, v.dims, String(v.type)])).toEqual([
      ["single", [{ name: "dim_0", size: 5 }], "Uint8"],
    ]);
    expect([...((await zarr.read("single")).toArray() as Uint8Array)]).toEqual(out.expected.single!.values);
  });
});
