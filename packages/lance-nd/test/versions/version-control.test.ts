import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { open, type NdTable } from "../../src/table.js";
import { append, write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readIds, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("version-control");
let count = 0;

/** A table of 3 rows (version 1) and 2 more (version 2). */
async function fresh(): Promise<NdTable> {
  const table = await write(path.join(dir, `t${count++}.lance`), sstRows(3));
  return append(table, sstRows(2, 3));
}

/** The tags, branches, version and rows of a table (on main and each branch), to assert a failed call changed nothing. */
async function snapshot(table: NdTable): Promise<unknown> {
  const main = await open(table.uri);
  const lines = await main.branches();
  const perBranch = await Promise.all(
    lines.map(async (b) => [b.name, await readIds(await open(table.uri, { branch: b.name }))]),
  );
  return {
    tags: await main.tags(),
    branches: lines,
    version: await main.version(),
    rows: await readIds(main),
    perBranch,
  };
}

async function unchanged(table: NdTable, call: () => Promise<unknown>, message: RegExp): Promise<void> {
  const before = await snapshot(table);
  const outcome = await failure(call());
  expect(outcome.code).toBe("InvalidInput");
  expect(outcome.message).toMatch(message);
  expect(await snapshot(table)).toEqual(before);
}

describe("tags", () => {
  it("tag names the latest version (or a given one); checkout reads it; untag removes the name", async () => {
    const t = await fresh();
    expect(await t.tag("v1", 1)).toBe(1);
    expect(await t.tag("latest")).toBe(2);
    expect(await t.tags()).toEqual([
      { name: "latest", version: 2 },
      { name: "v1", version: 1 },
    ]);
    expect(await readIds(await t.checkout("v1"))).toEqual(["r0", "r1", "r2"]);
    await t.untag("latest");
    expect(await t.tags()).toEqual([{ name: "v1", version: 1 }]);
  });

  it("bad input is InvalidInput naming it, and changes nothing", async () => {
    const t = await fresh();
    await t.tag("v1", 1);
    await unchanged(t, () => t.tag("v1"), /tag "v1" already exists/);
    await unchanged(t, () => t.tag("bad/name"), /bad tag name "bad\/name"/);
    await unchanged(t, () => t.tag(".hidden"), /bad tag name/);
    await unchanged(t, () => t.tag("v9", 99), /tag "v9" of version 99: version main:99 does not exist/);
    await unchanged(t, () => t.tag("v0", 0), /bad version 0/);
    await unchanged(t, () => t.untag("nope"), /no tag "nope"/);
    await unchanged(t, () => t.checkout("nope"), /no tag "nope"/);
  });

  it("a tag on a branch handle is refused (Lance records no branch with a tag); checkout of a tag there reads main's version; restore of a tag there is refused", async () => {
    const t = await fresh();
    const b = await t.createBranch("trial", { from: 1 });
    await unchanged(t, () => b.tag("x"), /tags name versions of main/);
    await t.tag("v2", 2);
    await append(b, sstRows(1, 9));
    const view = await b.checkout("v2");
    expect(view.branch).toBeNull();
    expect(await readIds(view)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    await unchanged(t, () => b.restore("v2"), /a tag names a version of main/);
  });
});

describe("branches", () => {
  it("branch forks the latest version; the handle reads and writes the branch; main stays", async () => {
    const t = await fresh();
    expect(t.branch).toBeNull();
    const b = await t.createBranch("trial");
    expect(b.branch).toBe("trial");
    expect(await t.branches()).toEqual([{ name: "trial", parentBranch: null, parentVersion: 2 }]);
    await append(b, sstRows(1, 10));
    expect(await readIds(b)).toEqual(["r0", "r1", "r10", "r2", "r3", "r4"]);
    expect(await readIds(await open(t.uri))).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    const reopened = await open(t.uri, { branch: "trial" });
    expect(reopened.branch).toBe("trial");
    expect(await readIds(reopened)).toEqual(["r0", "r1", "r10", "r2", "r3", "r4"]);
    expect((await open(t.uri, { branch: "main" })).branch).toBeNull();
  });

  it("from a version of main, or from another branch; versions and checkout are per branch", async () => {
    const t = await fresh();
    const old = await t.createBranch("old", { from: 1 });
    expect(await readIds(old)).toEqual(["r0", "r1", "r2"]);
    await append(old, sstRows(1, 20));
    const child = await old.createBranch("child");
    expect(await t.branches()).toEqual([
      { name: "child", parentBranch: "old", parentVersion: await old.version() },
      { name: "old", parentBranch: null, parentVersion: 1 },
    ]);
    expect(await readIds(child)).toEqual(["r0", "r1", "r2", "r20"]);
    const fromMain = await old.createBranch("again", { from: "main" });
    expect(await readIds(fromMain)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    // versions of the branch: its fork version and its own append
    expect((await old.versions()).map((v) => v.version)).toEqual([1, 2]);
    expect(await readIds(await old.checkout(1))).toEqual(["r0", "r1", "r2"]);
    expect((await old.checkout(2)).branch).toBe("old");
    expect((await t.versions()).map((v) => v.version)).toEqual([1, 2]);
    await t.deleteBranch("again");
    expect((await t.branches()).map((b) => b.name)).toEqual(["child", "old"]);
  });

  it("bad input is InvalidInput naming it, and changes nothing", async () => {
    const t = await fresh();
    await t.createBranch("trial");
    await unchanged(t, () => t.createBranch("trial"), /branch "trial" already exists/);
    await unchanged(t, () => t.createBranch("main"), /bad branch name "main"/);
    await unchanged(t, () => t.createBranch("a b/.."), /bad branch name "a b\/\.\."/);
    await unchanged(t, () => t.createBranch("x", { from: "nope" }), /no branch "nope" to start from/);
    await unchanged(t, () => t.createBranch("x", { from: 99 }), /branch "x" from version 99 of branch "main"/);
    await unchanged(t, () => t.createBranch("x", { from: 0 }), /bad from version 0/);
    await unchanged(t, () => open(t.uri, { branch: "nope" }), /no branch "nope" \(branches: trial\)/);
    await unchanged(t, () => t.deleteBranch("nope"), /no branch "nope"/);
    await unchanged(t, () => t.deleteBranch("main"), /main cannot be removed/);
  });
});
