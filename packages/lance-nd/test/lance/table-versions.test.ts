import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as arrow from "apache-arrow";
import { afterAll, describe, expect, it } from "vitest";
import { createTable, type LanceTable } from "../../src/lance/table-open.js";
import { countRows } from "../../src/lance/table-read.js";
import {
  checkoutVersion,
  cleanupVersions,
  compactTable,
  currentVersion,
  deleteWhere,
  listVersions,
  restoreVersion,
} from "../../src/lance/table-versions.js";
import { addNullFields, appendRows, castColumn } from "../../src/lance/table-write.js";
import { sampleBatch } from "./nd-rows.js";
import { failure } from "../helpers/write-rows.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-versions-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let tables = 0;

/** A table with versions 1..4: 3 rows, then one append of 1 row each. */
async function tableWithVersions(): Promise<LanceTable> {
  const table = await createTable(path.join(dir, `v${tables++}.lance`), sampleBatch(1).schema, sampleBatch(3));
  for (const first of [10, 11, 12]) await appendRows(table, sampleBatch(1, { first }));
  return table;
}

describe("versions (SDK-NOTES.md, section 7)", () => {
  it("listVersions lists each commit with its time and row count", async () => {
    const versions = await listVersions(await tableWithVersions());
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4]);
    expect(versions.map((v) => v.metadata.total_rows)).toEqual(["3", "4", "5", "6"]);
    expect(versions[0]!.timestamp).toBeInstanceOf(Date);
  });

  it("checkoutVersion is a read-only view that leaves the handle at the latest version", async () => {
    const table = await tableWithVersions();
    const view = await checkoutVersion(table, 2);
    expect(await countRows(view)).toBe(4);
    expect(await countRows(table)).toBe(6);
    expect(await failure(appendRows(view, sampleBatch(1)))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(checkoutVersion(table, 99))).toMatchObject({ code: "InvalidInput" });
  });

  it("restoreVersion commits the old content as a new version", async () => {
    const table = await tableWithVersions();
    expect(await restoreVersion(table, 2)).toBe(5);
    expect(await countRows(table)).toBe(4);
    await appendRows(table, sampleBatch(1));
    expect(await countRows(table)).toBe(5);
  });

  it("the SDK's delete commits a version even when nothing matches; deleteWhere does not", async () => {
    const table = await tableWithVersions();
    expect(await deleteWhere(table, "__global_attrs__.id = 'nope'")).toEqual({ deleted: 0, version: 4 });
    expect(await deleteWhere(table, "__global_attrs__.id = 'r10'")).toEqual({ deleted: 1, version: 5 });
    expect((await table.sdk.delete("__global_attrs__.id = 'nope'")).version).toBe(6);
    expect(await failure(deleteWhere(table, "nope = 1"))).toMatchObject({ code: "InvalidInput" });
  });

  it("compactTable merges fragments and removes no version", async () => {
    const table = await tableWithVersions();
    await deleteWhere(table, "__global_attrs__.id = 'r1'");
    const before = await currentVersion(table);
    const stats = await compactTable(table);
    expect(stats.compaction.fragmentsRemoved).toBe(4);
    expect(stats.compaction.fragmentsAdded).toBe(1);
    expect(await countRows(table)).toBe(5);
    const versions = (await listVersions(table)).map((v) => v.version);
    expect(versions.slice(0, before)).toEqual([1, 2, 3, 4, 5]);
    expect(versions.at(-1)).toBe(await currentVersion(table));
  });

  it("the SDK refuses a cleanup that reaches a tagged version; cleanupVersions stops at the oldest tag", async () => {
    const table = await tableWithVersions();
    await (await table.sdk.tags()).create("keep", 2);
    await expect(table.sdk.optimize({ cleanupOlderThan: new Date() })).rejects.toThrow(/tagged version/);
    const stats = await cleanupVersions(table, 0);
    expect(stats.prune.oldVersionsRemoved).toBe(1);
    expect((await listVersions(table)).map((v) => v.version)[0]).toBe(2);
    expect(await countRows(await checkoutVersion(table, "keep"))).toBe(4);
  });

  it("compaction and cleanup work after schema evolution and a nested cast", async () => {
    const table = await tableWithVersions();
    await addNullFields(table, [
      new arrow.Field("__global_attrs__", new arrow.Struct([new arrow.Field("title", new arrow.Utf8(), true)]), true),
    ]);
    await castColumn(table, "sst.values.item", new arrow.Float64());
    await compactTable(table);
    const stats = await cleanupVersions(table, 0);
    expect(stats.prune.oldVersionsRemoved).toBeGreaterThan(0);
    expect((await listVersions(table)).length).toBe(1);
    expect(await countRows(table)).toBe(6);
    expect(await currentVersion(table)).toBeGreaterThan(6);
  });
});
