import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  append,
  branch,
  branches,
  checkout,
  cleanupOldVersions,
  compact,
  deleteRows,
  restore,
  tag,
  tags,
  untag,
  versions,
  write,
  type NdTable,
} from "../../src/index.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readIds, sstRows } from "../helpers/write-rows.js";

// The spec's functions are aliases of NdTable's methods (README.md, "Methods
// and functions"): the same steps, by method on one table and by function on
// a twin, give the same results, rows, versions, tags and branches.

const dir = tempDir("method-aliases");

/** One way to call the table operations: the methods, or the spec's functions. */
interface Calls {
  versions(t: NdTable): Promise<{ version: number; metadata: Record<string, string> }[]>;
  checkout(t: NdTable, v: number | string): Promise<NdTable>;
  restore(t: NdTable, v: number | string): Promise<number>;
  delete(t: NdTable, predicate: string): Promise<unknown>;
  compact(t: NdTable): Promise<unknown>;
  cleanup(t: NdTable): Promise<unknown>;
  tags(t: NdTable): Promise<unknown>;
  tag(t: NdTable, name: string, v?: number): Promise<number>;
  untag(t: NdTable, name: string): Promise<void>;
  branches(t: NdTable): Promise<{ name: string; parentVersion: number }[]>;
  branch(t: NdTable, name: string, from?: number): Promise<NdTable>;
  deleteBranch(t: NdTable, name: string): Promise<void>;
}

const byMethod: Calls = {
  versions: (t) => t.versions(),
  checkout: (t, v) => t.checkout(v),
  restore: (t, v) => t.restore(v),
  delete: (t, p) => t.delete(p),
  compact: (t) => t.compact(),
  cleanup: (t) => t.cleanupOldVersions({ olderThan: 0 }),
  tags: (t) => t.tags(),
  tag: (t, name, v) => t.tag(name, v),
  untag: (t, name) => t.untag(name),
  branches: (t) => t.branches(),
  branch: (t, name, from) => t.createBranch(name, from === undefined ? {} : { from }),
  deleteBranch: (t, name) => t.deleteBranch(name),
};

const byFunction: Calls = {
  versions: (t) => versions(t),
  checkout: (t, v) => checkout(t, v),
  restore: (t, v) => restore(t, v),
  delete: (t, p) => deleteRows(t, p),
  compact: (t) => compact(t),
  cleanup: (t) => cleanupOldVersions(t, { olderThan: 0 }),
  tags: (t) => tags(t),
  tag: (t, name, v) => tag(t, name, v),
  untag: (t, name) => untag(t, name),
  branches: (t) => branches(t),
  branch: (t, name, from) => branch(t, name, from === undefined ? {} : { from }),
  deleteBranch: (t, name) => t.deleteBranch(name), // a method only: the spec names no function for it
};

/**
 * What a user sees of each step's result, by step: the same for both ways
 * of calling. A failure is a result too (its code and message).
 */
async function run(calls: Calls, uri: string): Promise<Map<string, unknown>> {
  const table = await append(await write(uri, sstRows(3)), sstRows(2, 3)); // versions 1 and 2
  const seen = new Map<string, unknown>();
  const see = async (step: string, work: () => Promise<unknown>): Promise<void> => {
    try {
      seen.set(step, await work());
    } catch (err) {
      const { code, message } = await failure(Promise.reject(err));
      seen.set(step, { code, message: message?.replaceAll(uri, "<uri>") });
    }
  };
  const versionList = async (t: NdTable) => (await calls.versions(t)).map((v) => [v.version, v.metadata.total_rows]);

  await see("versions", () => versionList(table));
  await see("tag latest", () => calls.tag(table, "latest"));
  await see("tag v1", () => calls.tag(table, "v1", 1));
  await see("tag again", () => calls.tag(table, "v1"));
  await see("tags", () => calls.tags(table));
  await see("checkout by number", async () => readIds(await calls.checkout(table, 1)));
  await see("checkout by tag", async () => readIds(await calls.checkout(table, "latest")));
  await see("checkout unknown tag", () => calls.checkout(table, "nope"));
  await see("delete", () => calls.delete(table, "__global_attrs__.id = 'r4'"));
  await see("delete on a view", async () => calls.delete(await calls.checkout(table, 1), "true"));
  await see("restore by tag", () => calls.restore(table, "v1"));
  await see("rows after restore", () => readIds(table));
  await see("restore by number", () => calls.restore(table, 2));
  await see("compact", () => calls.compact(table));
  await see("branch", async () => readIds(await calls.branch(table, "trial", 1)));
  await see("branches", async () => (await calls.branches(table)).map((b) => [b.name, b.parentVersion]));
  await see("untag", () => calls.untag(table, "latest"));
  await see("untag unknown", () => calls.untag(table, "latest"));
  await see("untag v1", () => calls.untag(table, "v1"));
  await see("deleteBranch", () => calls.deleteBranch(table, "trial"));
  await see("tags and branches", async () => [await calls.tags(table), await calls.branches(table)]);
  // Bytes removed depend on the manifests' sizes (they hold times and paths), not on the call.
  await see("cleanup", async () => {
    const { bytesRemoved, ...rest } = (await calls.cleanup(table)) as { bytesRemoved: number };
    return { ...rest, bytesRemoved: bytesRemoved > 0 };
  });
  await see("versions after cleanup", () => versionList(table));
  await see("rows", () => readIds(table));
  return seen;
}

describe("the spec's functions are aliases of NdTable's methods", () => {
  it("versions, checkout, restore, delete, compact, cleanup, tags and branches: the same by method and by function", async () => {
    const methods = await run(byMethod, path.join(dir, "methods.lance"));
    const functions = await run(byFunction, path.join(dir, "functions.lance"));
    expect(functions).toEqual(methods);
    // The steps did what they say (not the same failure both ways).
    expect(methods.get("tags")).toEqual([
      { name: "latest", version: 2 },
      { name: "v1", version: 1 },
    ]);
    expect(methods.get("tag again")).toMatchObject({ code: "InvalidInput" });
    expect(methods.get("checkout by number")).toEqual(["r0", "r1", "r2"]);
    expect(methods.get("checkout by tag")).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    expect(methods.get("checkout unknown tag")).toEqual({
      code: "InvalidInput",
      message: 'table "<uri>": no tag "nope"',
    });
    expect(methods.get("delete")).toEqual({ deleted: 1, version: 3 });
    expect(methods.get("delete on a view")).toMatchObject({ code: "InvalidInput" });
    expect(methods.get("rows after restore")).toEqual(["r0", "r1", "r2"]);
    expect(methods.get("branch")).toEqual(["r0", "r1", "r2"]);
    expect(methods.get("branches")).toEqual([["trial", 1]]);
    expect(methods.get("untag unknown")).toMatchObject({ code: "InvalidInput" });
    expect(methods.get("tags and branches")).toEqual([[], []]);
    expect(methods.get("versions after cleanup")).toEqual([[7, "5"]]);
    expect(methods.get("rows")).toEqual(["r0", "r1", "r2", "r3", "r4"]);
  });
});
