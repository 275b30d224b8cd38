// The commit ledger on a branch handle: its undo commands name the branch,
// so they never act on main (README.md, "Version control" and "Commit ledger").
import * as fs from "node:fs";
import * as path from "node:path";
import { Float64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { RollbackIncompleteError } from "../../src/lance/rollback-error.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { write } from "../../src/write/write.js";
import { NdWriter } from "../../src/write/writer.js";
import { tempDir } from "../helpers/make-table.js";
import { readIds, sstRow, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("branch-ledger");

describe("commit ledger on a branch", () => {
  it("a rollback whose delete fails in storage names the undo with --branch; main is untouched and the undo works on the branch", async () => {
    const uri = path.join(dir, "t.lance");
    await write(uri, sstRows(1));
    const trial = await (await open(uri)).createBranch("trial");
    const writer = await NdWriter.append(trial, { targetFragmentBytes: 1, writeParallelism: 1 });
    await writer.write(sstRow(1));
    await writer.write(sstRow(2));
    await widen(await open(uri, { branch: "trial" }), "sst", new Float64());
    await writer.write(sstRow(3)).catch(() => undefined);
    // Lance keeps the branch's transactions under tree/<branch>/; a file in their place fails the delete.
    const folder = path.join(uri, "tree", "trial", "_transactions");
    fs.renameSync(folder, `${folder}.moved`);
    fs.writeFileSync(folder, "not a folder");
    const err = await writer.finish().then(
      () => expect.fail("expected a rejection"),
      (e: unknown) => e,
    );
    fs.rmSync(folder);
    fs.renameSync(`${folder}.moved`, folder);
    expect(err).toBeInstanceOf(RollbackIncompleteError);
    const { leftBehind } = err as RollbackIncompleteError;
    expect(leftBehind.undo).toBe(`lance-nd delete ${uri} --branch trial --where "${leftBehind.deletePredicate}"`);
    expect(await readIds(await open(uri))).toEqual(["r0"]);
    const onBranch = await open(uri, { branch: "trial" });
    expect(await readIds(onBranch)).toEqual(["r0", "r1", "r2"]);
    expect(await onBranch.delete(leftBehind.deletePredicate!)).toMatchObject({ deleted: 2 });
    expect(await readIds(onBranch)).toEqual(["r0"]);
  });
});
