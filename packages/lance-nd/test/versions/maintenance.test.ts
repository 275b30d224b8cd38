import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NdArray } from "@lance-nd/nd-arrow";
import { col } from "../../src/read/expr.js";
import { scan } from "../../src/read/scan.js";
import type { NdTable } from "../../src/table.js";
import { appendRows } from "../../src/lance/table-write.js";
import { encodeRows } from "@lance-nd/format";
import { append } from "../../src/write/write.js";
import { appendTo, ids, makeTable, sampleRow, tempDir } from "../helpers/make-table.js";
import { recordSpans } from "../helpers/span-recorder.js";
import { failure } from "../helpers/write-rows.js";

const dir = tempDir("maintenance");
const spans = recordSpans();
let count = 0;

async function fresh(rows = 4): Promise<NdTable> {
  return makeTable(
    path.join(dir, `t${count++}.lance`),
    Array.from({ length: rows }, (_, i) => sampleRow(i)),
    { stats: true },
  );
}

/** Asserts that a failed call left the version and the rows as they were. */
async function unchanged(table: NdTable, run: () => Promise<unknown>, code: string): Promise<void> {
  const version = await table.version();
  const rows = ids(await scan(table).toArray());
  expect(await failure(run)).toMatchObject({ code });
  expect(await table.version()).toBe(version);
  expect(ids(await scan(table).toArray())).toEqual(rows);
}

describe("delete", () => {
  it("deletes the rows an nd filter or an Expr matches, in one new version", async () => {
    const t = await fresh();
    const v = await t.version();
    expect(await t.delete("__stats__:sst.max < 10")).toEqual({ deleted: 1, version: v + 1 });
    expect(await t.delete(col("__global_attrs__.id").isIn(["r2", "r3"]))).toEqual({ deleted: 2, version: v + 2 });
    expect(ids(await scan(t).toArray())).toEqual(["r1"]);
  });

  it("a predicate that matches no row commits no version", async () => {
    const t = await fresh();
    const v = await t.version();
    expect(await t.delete("__global_attrs__.id = 'nope'")).toEqual({ deleted: 0, version: v });
    expect(await t.version()).toBe(v);
  });

  it("an unknown column or bad SQL is InvalidInput and changes nothing", async () => {
    const t = await fresh();
    await unchanged(t, () => t.delete("nope = 1"), "InvalidInput");
    await unchanged(t, () => t.delete("__global_attrs__.id = "), "InvalidInput");
    await unchanged(t, () => t.delete(""), "InvalidInput");
  });
});

describe("compact", () => {
  it("merges fragments, drops deleted rows, keeps the rows, after schema evolution and with tags", async () => {
    const t = await fresh(2);
    await appendTo(t, [sampleRow(2, { extra: { chl: NdArray.from(new Float32Array([1]), { dims: { depth: 1 } }) } })]);
    await appendTo(t, [sampleRow(3)]);
    await t.lance.sdk.tags().then((tags) => tags.create("first", 1));
    await t.delete("__global_attrs__.n = 0");
    const before = await scan(t).toArray();
    const result = await t.compact();
    expect(result.fragmentsRemoved).toBe(3);
    expect(result.fragmentsAdded).toBe(1);
    const after = await scan(t).toArray();
    expect(ids(after)).toEqual(ids(before));
    expect(after.map((r) => r.names().sort())).toEqual(before.map((r) => r.names().sort()));
    expect((await t.versions()).map((v) => v.version)).toContain(1);
  });

  it("unknown options are InvalidInput", async () => {
    const t = await fresh();
    await unchanged(t, () => t.compact({ targetRowsPerFragment: 10 } as never), "InvalidInput");
  });
});

describe("cleanupOldVersions", () => {
  it("removes old versions (age in ms or a Date), keeps the latest and the rows", async () => {
    const t = await fresh(1);
    await appendTo(t, [sampleRow(1)]);
    await appendTo(t, [sampleRow(2)]);
    expect((await t.versions()).length).toBe(3);
    const result = await t.cleanupOldVersions({ olderThan: 0 });
    expect(result.versionsRemoved).toBeGreaterThanOrEqual(2);
    expect((await t.versions()).map((v) => v.version)).not.toContain(1);
    expect(ids(await scan(t).toArray())).toEqual(["r0", "r1", "r2"]);
    expect(await t.cleanupOldVersions({ olderThan: new Date(Date.now() + 60_000) })).toMatchObject({
      versionsRemoved: expect.any(Number),
    });
  });

  it("succeeds with a tagged version, which stays", async () => {
    const t = await fresh(1);
    await appendTo(t, [sampleRow(1)]);
    const tagged = await t.version();
    await t.lance.sdk.tags().then((tags) => tags.create("keep", tagged));
    await appendTo(t, [sampleRow(2)]);
    const result = await t.cleanupOldVersions({ olderThan: 0 });
    const left = (await t.versions()).map((v) => v.version);
    expect(left).toContain(tagged);
    expect(left).not.toContain(1);
    expect(result.keptByTags).toEqual([{ name: "keep", version: tagged }]);
    // Untagged, the next cleanup removes the version and names no tag.
    await t.lance.sdk.tags().then((tags) => tags.delete("keep"));
    const untagged = await t.cleanupOldVersions({ olderThan: 0 });
    expect(untagged.versionsRemoved).toBeGreaterThanOrEqual(1);
    expect(untagged.keptByTags).toEqual([]);
    expect((await t.versions()).map((v) => v.version)).not.toContain(tagged);
  });

  it("bad options are InvalidInput and change nothing", async () => {
    const t = await fresh();
    await unchanged(t, () => t.cleanupOldVersions({ olderThan: -1 }), "InvalidInput");
    await unchanged(t, () => t.cleanupOldVersions({ olderThan: new Date(Number.NaN) }), "InvalidInput");
    await unchanged(t, () => t.cleanupOldVersions({} as never), "InvalidInput");
  });
});

describe("versions, checkout, restore", () => {
  it("versions lists each commit with its time and Lance's summary", async () => {
    const t = await fresh(2);
    await appendTo(t, [sampleRow(2)]);
    const list = await t.versions();
    expect(list.map((v) => v.version)).toEqual([1, 2]);
    expect(list[1]!.timestamp).toBeInstanceOf(Date);
    expect(list[1]!.metadata.total_rows).toBe("3");
  });

  it("checkout gives a read-only view: scans read it, writes fail with InvalidInput", async () => {
    const t = await fresh(2);
    await appendTo(t, [sampleRow(2)]);
    const view = await t.checkout(1);
    expect(view.readOnly).toBe(true);
    expect(await view.version()).toBe(1);
    expect(ids(await scan(view).toArray())).toEqual(["r0", "r1"]);
    expect(await failure(() => view.delete("__global_attrs__.n = 0"))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => view.compact())).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => view.cleanupOldVersions({ olderThan: 0 }))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => view.restore(1))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => append(view, [sampleRow(9)]))).toMatchObject({ code: "InvalidInput" });
    // Lance itself refuses a write through the view's handle.
    expect(await failure(() => appendRows(view.lance, encodeRows([sampleRow(9)], view.tableSchema)))).toMatchObject({
      code: "InvalidInput",
    });
    expect(ids(await scan(t).toArray())).toEqual(["r0", "r1", "r2"]);
  });

  it("checkout of a version that does not exist, or not a version, is InvalidInput", async () => {
    const t = await fresh();
    expect(await failure(() => t.checkout(99))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => t.checkout(0))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => t.checkout(1.5))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(() => t.checkout("no-such-tag"))).toMatchObject({ code: "InvalidInput" });
  });

  it("restore makes an earlier version the latest in a new commit", async () => {
    const t = await fresh(2);
    await appendTo(t, [sampleRow(2, { extra: { chl: NdArray.from(new Float32Array([1]), { dims: { depth: 1 } }) } })]);
    const latest = await t.version();
    expect(await t.restore(1)).toBe(latest + 1);
    expect(ids(await scan(t).toArray())).toEqual(["r0", "r1"]);
    expect(t.layout.arrays.has("chl")).toBe(false);
    expect((await t.versions()).map((v) => v.version).slice(-2)).toEqual([latest, latest + 1]);
  });

  it("restore of a bad version is InvalidInput and changes nothing", async () => {
    const t = await fresh();
    await unchanged(t, () => t.restore(42), "InvalidInput");
    await unchanged(t, () => t.restore(-1), "InvalidInput");
    await unchanged(t, () => t.restore("no-such-tag"), "InvalidInput");
  });
});

describe("spans", () => {
  it("delete, compact, cleanupOldVersions and restore each run in their span with the table uri", async () => {
    const t = await fresh(3);
    spans.length = 0;
    await t.delete("__global_attrs__.n = 0");
    await t.compact();
    await t.cleanupOldVersions({ olderThan: 60_000 });
    await t.restore(1);
    expect(spans.map((s) => [s.name, s.attributes["lance_nd.table.uri"], s.ended])).toEqual([
      ["lance_nd.delete", t.uri, true],
      ["lance_nd.compact", t.uri, true],
      ["lance_nd.compact", t.uri, true],
      ["lance_nd.restore", t.uri, true],
    ]);
    expect(spans[0]!.attributes["lance_nd.rows_deleted"]).toBe(1);
  });

  it("a failed delete marks its span failed", async () => {
    const t = await fresh(1);
    spans.length = 0;
    await failure(() => t.delete("__global_attrs__.id = "));
    expect(spans.map((s) => [s.name, s.failed])).toEqual([["lance_nd.delete", true]]);
  });
});
