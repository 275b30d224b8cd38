// Rollback: a failed writer that could not roll back said nothing
// of it. Storage fails for real here (a plain file where Lance writes its
// transaction files, `_transactions/`, so every commit fails with ENOTDIR as
// on a full or broken disk, while the table stays readable). The error is a
// RollbackIncompleteError naming the versions and rows left, and the one
// command it names, run as typed through the built command line, undoes them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Float64 } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NdWriter, RollbackIncompleteError, open, widen, write } from "lance-nd";
import { CLI, requireBuiltCli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { rowsById } from "./helpers/plain-rows.js";
import { rowFor } from "./helpers/rows.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-rollback-"));
beforeAll(() => requireBuiltCli());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Puts a plain file where the table keeps `_transactions/`; returns the undo. */
function breakCommits(uri: string): () => void {
  const folder = join(uri, "_transactions");
  const existed = existsSync(folder);
  if (existed) renameSync(folder, `${folder}.moved`);
  writeFileSync(folder, "not a folder");
  return () => {
    rmSync(folder);
    if (existed) renameSync(`${folder}.moved`, folder);
  };
}

/** Runs `undo` (a `lance-nd …` command line) in bash, with `lance-nd` the built command. */
function runUndo(undo: string): void {
  expect(undo).toMatch(/^lance-nd /);
  const run = spawnSync("bash", ["-c", `node ${CLI} ${undo.slice("lance-nd ".length)}`], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
}

async function ids(uri: string): Promise<string[]> {
  return [...(await rowsById(await open(uri), { types: false })).keys()];
}

/** A writer with two committed adds whose next add fails (another process widened `a`; casting "no"). */
async function failingWriter(uri: string, mode: "append" | "overwrite"): Promise<NdWriter> {
  const options = { targetFragmentBytes: 1, writeParallelism: 1 };
  const writer =
    mode === "append"
      ? await NdWriter.append(await open(uri), options)
      : await NdWriter.create(uri, { ...options, mode: "overwrite" });
  await writer.write(rowFor("new-1"));
  await writer.write(rowFor("new-2"));
  await widen(await open(uri), "a", new Float64());
  await writer.write(rowFor("new-3")).catch(() => undefined);
  return writer;
}

describe("a rollback that cannot complete says so, and its undo works", () => {
  it.each(["append", "overwrite"] as const)(
    "%s writer: RollbackIncompleteError, then the named command restores the rows",
    async (mode) => {
      const uri = join(dir, `${mode}.lance`);
      await write(uri, ["old-1", "old-2"].map(rowFor), { stats: true });
      const writer = await failingWriter(uri, mode);
      const committed = [...writer.versions];
      expect(committed).toHaveLength(2);
      const repair = breakCommits(uri);
      const err = await writer.finish().then(
        () => expect.fail("finish should fail"),
        (e: unknown) => e,
      );
      repair();
      expect(err).toBeInstanceOf(RollbackIncompleteError);
      const { leftBehind, message } = err as RollbackIncompleteError;
      expect(leftBehind.versions).toEqual(committed);
      expect(leftBehind.rows).toBe(2);
      expect(message).toContain(leftBehind.undo);
      expect(message).toMatch(mode === "append" ? /delete failed/ : /restore failed/);
      // What the failure left: the writer's rows (and for the overwrite, only them).
      expect(await ids(uri)).toEqual(mode === "append" ? ["new-1", "new-2", "old-1", "old-2"] : ["new-1", "new-2"]);
      runUndo(leftBehind.undo);
      expect(await ids(uri)).toEqual(["old-1", "old-2"]);
      count("badInputs");
      count("rowsVerified", 2);
    },
  );
});
