// A widen's rewrite killed (SIGKILL, a real child process) at each step of
// its replay, and a completer killed in turn: `check --repair`, the next
// widen and `cleanupOldVersions` complete the replay, and every committed
// row is in the latest version exactly once (README.md, Widen).
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Float64, Int32 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import { addSchemaMetadata } from "../../src/lance/table-write.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { REPLAY_KEY } from "../../src/widen/widen-replay-record.js";
import { append, write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readIds, readRows, sstRow } from "../helpers/write-rows.js";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = tempDir("widen-replay");
let tables = 0;
const int32Row = (i: number, id: string) => sstRow(i, { type: new Int32(), id });
/** The rows after the window: r1 deleted, w0 and w1 appended. */
const AFTER_WINDOW = ["r0", "r2", "w0", "w1"];

/** Starts test/helpers/rewrite-child.ts; `printed` resolves at its line `line`. */
function startRewrite(uri: string, mode: "widen" | "complete", stopAt: string) {
  const child = spawn(
    process.execPath,
    ["--conditions=@lance-nd/source", "--import", "tsx", "test/helpers/rewrite-child.ts", uri, mode, stopAt],
    { cwd: packageDir, stdio: ["pipe", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const printed = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const seen = () => out.split("\n").includes(line);
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (seen()) resolve();
      });
      if (seen()) resolve();
      void exited.then(({ code }) => reject(new Error(`child exited (${code}) before "${line}": ${err}`)));
    });
  return { child, printed, exited };
}

async function kill(child: ChildProcess, exited: Promise<{ signal: string | null }>): Promise<void> {
  child.kill("SIGKILL");
  expect((await exited).signal).toBe("SIGKILL");
}

/**
 * A table of r0..r2 (sst Int32) whose widen to Float64 is killed at `step`,
 * after the parent (another process) appended w0, w1 and deleted r1 while
 * the rewrite ran.
 */
async function killedRewrite(step: string): Promise<string> {
  const uri = path.join(dir, `t${tables++}.lance`);
  await write(
    uri,
    [0, 1, 2].map((i) => int32Row(i, `r${i}`)),
    { stats: true },
  );
  const rewrite = startRewrite(uri, "widen", step);
  const stdout = rewrite.printed(step);
  await rewrite.printed("read");
  const other = await open(uri);
  await append(other, [int32Row(10, "w0"), int32Row(11, "w1")]);
  await other.delete("__global_attrs__.id = 'r1'");
  rewrite.child.stdin.write("go\n");
  await stdout;
  await kill(rewrite.child, rewrite.exited);
  return uri;
}

/** Every row once, the window's rows in, sst Float64 in every row. */
async function expectComplete(uri: string): Promise<void> {
  const table = await open(uri);
  expect(await readIds(table)).toEqual(AFTER_WINDOW);
  expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
  for (const row of await readRows(table)) expect(row.get("sst")!.toArray()).toBeInstanceOf(Float64Array);
  const report = await check(uri);
  expect(report.pendingWidenReplay).toBeNull();
  expect(report.ok).toBe(true);
}

describe("a widen rewrite killed before its replay ended", () => {
  it("killed right after the overwrite: check reports the pending replay, check --repair completes it", async () => {
    const uri = await killedRewrite("overwrite");
    expect(await readIds(await open(uri))).toEqual(["r0", "r1", "r2"]);
    const report = await check(uri);
    expect(report.ok).toBe(false);
    expect(report.pendingWidenReplay).toMatchObject({ read: 1, overwrite: 4, variable: "sst" });
    expect(report.notes.join("\n")).toMatch(/replayed versions 2\.\.3, .*check --repair/);
    const repaired = await check(uri, { repair: true });
    expect(repaired.repair).toMatchObject({ ok: true, widenReplay: { read: 1, overwrite: 4 } });
    await expectComplete(uri);
  });

  it("killed after the replayed deletes: the next widen completes the replay first", async () => {
    const uri = await killedRewrite("deletes");
    expect(await readIds(await open(uri))).toEqual(["r0", "r2"]);
    await widen(await open(uri), "sst", new Float64());
    await expectComplete(uri);
  });

  it("killed after the append mark, before the append: check --repair appends the window's rows", async () => {
    const uri = await killedRewrite("appending");
    expect((await check(uri, { repair: true })).repair?.ok).toBe(true);
    await expectComplete(uri);
  });

  it("killed after the append, before the record closed: check --repair does not append again", async () => {
    const uri = await killedRewrite("append");
    expect(await readIds(await open(uri))).toEqual(AFTER_WINDOW);
    expect((await check(uri)).pendingWidenReplay).not.toBeNull();
    expect((await check(uri, { repair: true })).repair?.ok).toBe(true);
    await expectComplete(uri);
  });

  it("a completer killed after its own append: the next completer appends nothing", async () => {
    const uri = await killedRewrite("appending");
    const completer = startRewrite(uri, "complete", "append");
    await completer.printed("append");
    await kill(completer.child, completer.exited);
    expect(await readIds(await open(uri))).toEqual(AFTER_WINDOW);
    expect((await check(uri, { repair: true })).repair?.ok).toBe(true);
    await expectComplete(uri);
  });

  it("cleanupOldVersions completes the replay before it removes the versions the replay reads", async () => {
    const uri = await killedRewrite("overwrite");
    await (await open(uri)).cleanupOldVersions({ olderThan: 0 });
    await expectComplete(uri);
  });

  it("a record lance-nd did not write: widen and cleanup fail with InvalidTable naming the key; check reports it", async () => {
    const uri = path.join(dir, `t${tables++}.lance`);
    const table = await write(uri, [int32Row(0, "r0")]);
    await addSchemaMetadata(table.lance, { [REPLAY_KEY]: "{not json" });
    const widened = await failure(widen(table, "sst", new Int32()));
    expect(widened.code).toBe("InvalidTable");
    expect(widened.message).toContain(REPLAY_KEY);
    expect(widened.message).toContain("check --repair");
    expect((await failure(table.cleanupOldVersions({ olderThan: 0 }))).code).toBe("InvalidTable");
    const report = await check(uri);
    expect(report.ok).toBe(false);
    expect(report.notes.join("\n")).toContain(REPLAY_KEY);
    expect((await failure(check(uri, { repair: true }))).code).toBe("InvalidTable");
    expect(await readIds(await open(uri))).toEqual(["r0"]);
  });
});
