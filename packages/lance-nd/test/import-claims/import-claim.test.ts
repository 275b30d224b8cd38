// The claim of an import (README.md, "Guarantees"): per-id writer locks held
// as Lance tags, the import mark, and what `check` reports and `check
// --repair` undoes after the importing process was SIGKILLed (a real child
// process, killed).
import { spawn } from "node:child_process";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import { openTable } from "../../src/lance/table-open.js";
import { currentVersion } from "../../src/lance/table-versions.js";
import { open } from "../../src/table.js";
import { claimImport } from "../../src/import-claims/import-claim.js";
import { importMarks } from "../../src/import-claims/import-mark.js";
import { leftoverImports, staleLocks } from "../../src/import-claims/leftover-imports.js";
import { lockIds, lockTagName, unlockIds, writerLocks } from "../../src/import-claims/writer-lock.js";
import { append, write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readIds, sstRow, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("import-claim");
const ROOT = path.join(import.meta.dirname, "..", "..", "..", "..");
const children = new Set<ReturnType<typeof spawn>>();
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});
let count = 0;

/** A table of rows r0, r1, r2 (version 1). */
async function fresh(): Promise<string> {
  const uri = path.join(dir, `t${count++}.lance`);
  await write(uri, sstRows(3));
  return uri;
}

/** Runs test/helpers/killed-import.ts until it is ready, then SIGKILLs it and waits for its end. */
async function killedImport(args: { uri: string; mode: string; step: string; branch?: string }): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@lance-nd/source",
      "--import",
      "tsx",
      path.join("packages", "lance-nd", "test", "helpers", "killed-import.ts"),
      JSON.stringify(args),
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready\n")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`killed-import exited (${code}) before it was ready: ${err}`)));
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  children.delete(child);
}

async function tagNames(uri: string): Promise<string[]> {
  return (await (await open(uri)).tags()).map((t) => t.name);
}

describe("writer locks", () => {
  it("a second import of an id fails at once with --no-wait naming the holder, and waits for it otherwise", async () => {
    const uri = await fresh();
    const claim = { mode: "append" as const, branch: null, ids: ["r7"] };
    const first = await claimImport(uri, { ...claim, wait: { timeoutMs: 0 } });
    expect(await failure(claimImport(uri, { ...claim, wait: { timeoutMs: 0 } }))).toMatchObject({
      code: "CommitConflict",
      message: expect.stringMatching(
        new RegExp(
          `id "r7" is being written by another import: held by import ${first.mark.uuid} \\(append, process ${process.pid} on `,
        ),
      ),
    });
    // Another id, or the same id on a branch, is another lock.
    await (await claimImport(uri, { ...claim, ids: ["r8"], wait: { timeoutMs: 0 } })).release();
    expect(lockTagName("b", "r7")).not.toBe(lockTagName(null, "r7"));
    setTimeout(() => void first.release(), 300);
    const second = await claimImport(uri, { ...claim, wait: { timeoutMs: 30_000 } });
    const main = await openTable(uri);
    expect((await writerLocks(main)).map((l) => [l.id, l.holder?.uuid, l.stale])).toEqual([
      ["r7", second.mark.uuid, false],
    ]);
    expect((await importMarks(main)).map((m) => m.info)).toEqual([
      expect.objectContaining({ mode: "append", branch: null, version: 1, ids: ["r7"], pid: process.pid }),
    ]);
    await second.release();
    expect(await tagNames(uri)).toEqual([]);
    expect(await leftoverImports(main)).toEqual([]);
    main.sdk.close();
  });

  it("a mark holds many ids, and a wait stops on its abort signal with the locks released", async () => {
    const uri = await fresh();
    const ids = Array.from({ length: 40 }, (_, i) => `a file with a long name, number ${i}.nc`);
    const claim = await claimImport(uri, { mode: "replace", branch: null, ids, wait: { timeoutMs: 0 } });
    const main = await openTable(uri);
    expect((await importMarks(main))[0]!.info!.ids).toEqual(ids);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stopped")), 300);
    const other = claimImport(uri, {
      mode: "append",
      branch: null,
      ids: ["r9", ids[5]!],
      wait: { timeoutMs: 60_000, signal: controller.signal },
    });
    await expect(other).rejects.toThrow("stopped");
    expect((await writerLocks(main)).filter((l) => l.id === "r9")).toEqual([]);
    await claim.release();
    expect(await tagNames(uri)).toEqual([]);
    main.sdk.close();
  });
  it("an import whose lock create raced another's (Lance checks, then writes) sees the other's mark and steps back", async () => {
    const uri = await fresh();
    const claim = { mode: "replace" as const, branch: null, ids: ["r1"] };
    const first = await claimImport(uri, { ...claim, wait: { timeoutMs: 0 } });
    // What a second create of the lock tag that passed Lance's existence check at the same moment leaves: no conflict.
    await (await open(uri)).untag(lockTagName(null, "r1"));
    expect(await failure(claimImport(uri, { ...claim, wait: { timeoutMs: 0 } }))).toMatchObject({
      code: "CommitConflict",
      message: expect.stringContaining(`held by import ${first.mark.uuid}`),
    });
    const waiting = claimImport(uri, { ...claim, wait: { timeoutMs: 30_000 } });
    setTimeout(() => void first.release(), 300);
    const second = await waiting;
    const main = await openTable(uri);
    expect((await importMarks(main)).map((m) => m.uuid)).toEqual([second.mark.uuid]);
    await second.release();
    expect(await tagNames(uri)).toEqual([]);
    main.sdk.close();
  });
});

describe("releasing a lock", () => {
  it("two releases of one lock at once both end, 20 times: a tag gone between the list and its delete is released", async () => {
    const uri = await fresh();
    const main = await openTable(uri);
    for (let round = 0; round < 20; round++) {
      const tags = await lockIds(main, null, ["r1"], await currentVersion(main), { timeoutMs: 0 });
      await Promise.all([unlockIds(main, tags), unlockIds(main, tags)]);
      expect(await tagNames(uri), `round ${round}`).toEqual([]);
    }
    main.sdk.close();
  });
});

describe("a SIGKILLed import: check reports it, check --repair undoes it", () => {
  it("append: its rows go, its mark and lock go", async () => {
    const uri = await fresh();
    await killedImport({ uri, mode: "append", step: "all" });
    const main = await openTable(uri);
    expect(await leftoverImports(main)).toEqual([
      expect.objectContaining({ mode: "append", ids: ["r1"], rows: 2, version: 1, branch: null }),
    ]);
    expect(await staleLocks(main)).toEqual([{ tag: lockTagName(null, "r1"), id: "r1" }]);
    main.sdk.close();
    const report = await check(uri);
    expect(report).toMatchObject({ ok: false, leftoverImports: [{ rows: 2 }], staleLocks: [{ id: "r1" }] });
    const repaired = await check(uri, { repair: true });
    expect(repaired.repair).toMatchObject({ ok: true, imports: { droppedTable: false, completed: [] } });
    expect(repaired.repair!.imports.undone).toHaveLength(1);
    expect(repaired.repair!.imports.brokenLocks).toHaveLength(1);
    expect(await readIds(await open(uri))).toEqual(["r0", "r1", "r2"]);
    expect(await tagNames(uri)).toEqual([]);
  });

  it("replace cut before its delete: the new rows go; replace whose delete landed: the new rows stay", async () => {
    const cut = await fresh();
    await killedImport({ uri: cut, mode: "replace", step: "append" });
    expect(await readIds(await open(cut))).toEqual(["r0", "r1", "r1", "r1", "r2"]);
    const report = await check(cut, { repair: true });
    expect(report.repair!.imports.undone).toHaveLength(1);
    const rows = await (await open(cut)).countRows("__global_attrs__.id = 'r1' AND _row_created_at_version = 1");
    expect([await readIds(await open(cut)), rows]).toEqual([["r0", "r1", "r2"], 1]);

    const landed = await fresh();
    await killedImport({ uri: landed, mode: "replace", step: "all" });
    const after = await check(landed, { repair: true });
    expect(after.repair!.imports.completed).toHaveLength(1);
    expect(await readIds(await open(landed))).toEqual(["r0", "r1", "r1", "r2"]);
    expect(await (await open(landed)).countRows("_row_created_at_version = 1")).toBe(2);
    expect(await tagNames(landed)).toEqual([]);
  });

  it("overwrite: the version it started from is restored; create: the table is removed", async () => {
    const overwritten = await fresh();
    await append(await open(overwritten), [sstRow(5)]);
    await killedImport({ uri: overwritten, mode: "overwrite", step: "all" });
    expect(await readIds(await open(overwritten))).toEqual(["r1", "r1"]);
    await check(overwritten, { repair: true });
    expect(await readIds(await open(overwritten))).toEqual(["r0", "r1", "r2", "r5"]);
    expect(await tagNames(overwritten)).toEqual([]);

    const created = path.join(dir, `created-${count++}.lance`);
    await killedImport({ uri: created, mode: "create", step: "all" });
    expect((await check(created)).leftoverImports).toEqual([expect.objectContaining({ mode: "create", rows: 2 })]);
    const report = await check(created, { repair: true });
    expect(report.repair).toMatchObject({ ok: true, imports: { droppedTable: true } });
    expect(await failure(open(created))).toMatchObject({ code: "TableNotFound" });
  });

  it("a replace on a branch: its leftover is undone on the branch, main keeps its rows", async () => {
    const uri = await fresh();
    await (await open(uri)).createBranch("trial");
    await killedImport({ uri, mode: "replace", step: "append", branch: "trial" });
    const main = await openTable(uri);
    expect(await leftoverImports(main)).toEqual([
      expect.objectContaining({ mode: "replace", branch: "trial", ids: ["r1"], rows: 2 }),
    ]);
    main.sdk.close();
    // The lock of the id on the branch does not hold the id on main.
    await (await claimImport(uri, { mode: "append", branch: null, ids: ["r1"], wait: { timeoutMs: 0 } })).release();
    await check(uri, { repair: true });
    expect(await readIds(await open(uri, { branch: "trial" }))).toEqual(["r0", "r1", "r2"]);
    expect(await readIds(await open(uri))).toEqual(["r0", "r1", "r2"]);
    expect(await tagNames(uri)).toEqual([]);
  });

  it("a lock whose holder died before marking is stale; repair breaks it, and the id can be claimed again", async () => {
    const uri = await fresh();
    await killedImport({ uri, mode: "append", step: "lock" });
    expect(
      await failure(claimImport(uri, { mode: "append", branch: null, ids: ["r1"], wait: { timeoutMs: 0 } })),
    ).toMatchObject({ code: "CommitConflict", message: expect.stringContaining("run lance-nd check --repair") });
    const report = await check(uri, { repair: true });
    expect(report).toMatchObject({ ok: false, leftoverImports: [], staleLocks: [{ id: null }] });
    expect(report.repair!.imports.brokenLocks).toHaveLength(1);
    const main = await openTable(uri);
    expect(await currentVersion(main)).toBe(1);
    main.sdk.close();
    await (await claimImport(uri, { mode: "append", branch: null, ids: ["r1"], wait: { timeoutMs: 0 } })).release();
  });
});
