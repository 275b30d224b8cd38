// The commit ledger (README.md, "Commit ledger"): a failed multi-commit
// operation undoes its commits; when it cannot, the error names the versions
// and rows left and the one command that undoes them, and that command works.
// Storage failures are real: a plain file where Lance writes its transaction
// files (`_transactions/`) makes every commit fail (ENOTDIR), as a full or
// broken disk would, while the table stays readable.
import * as fs from "node:fs";
import * as path from "node:path";
import { Float64, Int32 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { RollbackIncompleteError } from "../../src/lance/rollback-error.js";
import { CommitLedger } from "../../src/write/commit-ledger.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { append, write } from "../../src/write/write.js";
import { replaceRows } from "../../src/write/replace-rows.js";
import { col } from "../../src/read/expr.js";
import { scan } from "../../src/read/scan.js";
import { NdWriter } from "../../src/write/writer.js";
import { tempDir } from "../helpers/make-table.js";
import { readIds, sstRow, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("ledger");
let tables = 0;
const fresh = (): string => path.join(dir, `l${tables++}.lance`);

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (err: unknown) => err,
  );
}

/** Puts a plain file where Lance keeps the folder `name` of the table; returns the undo. */
function blockFolder(uri: string, name: string): () => void {
  const folder = path.join(uri, name);
  const moved = `${folder}.moved`;
  const existed = fs.existsSync(folder);
  if (existed) fs.renameSync(folder, moved);
  fs.writeFileSync(folder, "not a folder");
  return () => {
    fs.rmSync(folder);
    if (existed) fs.renameSync(moved, folder);
  };
}

/** An append writer with 2 committed rows whose next add fails (another writer widened sst; casting "no"). */
async function failedWriter(uri: string): Promise<NdWriter> {
  const table = await write(uri, sstRows(1));
  const writer = await NdWriter.append(table, { targetFragmentBytes: 1, writeParallelism: 1 });
  await writer.write(sstRow(1));
  await writer.write(sstRow(2));
  await widen(await open(uri), "sst", new Float64());
  await writer.write(sstRow(3)).catch(() => undefined);
  return writer;
}

describe("commit ledger", () => {
  it("a delete that fails in storage: RollbackIncompleteError names the versions, rows and the delete that undoes them", async () => {
    const uri = fresh();
    const writer = await failedWriter(uri);
    const versions = [...writer.versions];
    expect(versions).toHaveLength(2);
    const unblock = blockFolder(uri, "_transactions");
    const err = await rejection(writer.finish());
    unblock();
    expect(err).toBeInstanceOf(RollbackIncompleteError);
    const { leftBehind, code, message, cause, operationError } = err as RollbackIncompleteError;
    expect(code).toBe("WriterFailed");
    expect(leftBehind).toMatchObject({
      versions,
      rows: 2,
      deletePredicate: `_row_created_at_version IN (${versions.join(", ")})`,
    });
    expect(leftBehind.undo).toBe(`lance-nd delete ${uri} --where "${leftBehind.deletePredicate}"`);
    expect(message).toContain(`delete failed`);
    expect(message).toContain(`2 rows of versions ${versions.join(", ")}`);
    expect(message).toContain(leftBehind.undo);
    expect(cause).toBeInstanceOf(Error);
    expect(operationError).toMatchObject({ code: "SchemaMismatch" });
    const table = await open(uri);
    expect(await readIds(table)).toEqual(["r0", "r1", "r2"]);
    // The undo, as the command runs it.
    expect(await table.delete(leftBehind.deletePredicate!)).toMatchObject({ deleted: 2 });
    expect(await readIds(table)).toEqual(["r0"]);
  });

  it("an overwrite whose restore fails in storage: RollbackIncompleteError names the version to restore, and restoring it undoes the overwrite", async () => {
    const uri = fresh();
    await write(uri, sstRows(2));
    const writer = await NdWriter.create(uri, { mode: "overwrite", targetFragmentBytes: 1, writeParallelism: 1 });
    await writer.write(sstRow(7));
    await writer.write(sstRow(8));
    await widen(await open(uri), "sst", new Float64());
    await writer.write(sstRow(9)).catch(() => undefined);
    const unblock = blockFolder(uri, "_transactions");
    const err = await rejection(writer.finish());
    unblock();
    expect(err).toBeInstanceOf(RollbackIncompleteError);
    const { leftBehind, message } = err as RollbackIncompleteError;
    expect(leftBehind).toMatchObject({
      versions: [2, 3],
      rows: 2,
      restoreVersion: 1,
      undo: `lance-nd restore ${uri} 1`,
    });
    expect(message).toContain("restore failed");
    const table = await open(uri);
    expect(await readIds(table)).toEqual(["r7", "r8"]);
    await table.restore(leftBehind.restoreVersion!);
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });

  it("append() whose add and rollback both fail in storage throws RollbackIncompleteError (not the add's error), and its undo works", async () => {
    const uri = fresh();
    const table = await write(uri, sstRows(1));
    let unblock = () => {};
    async function* rows() {
      yield sstRow(1);
      yield sstRow(2);
      unblock = blockFolder(uri, "_transactions");
      yield sstRow(3);
    }
    const err = await rejection(append(table, rows(), { targetFragmentBytes: 1, writeParallelism: 1 }));
    unblock();
    expect(err).toBeInstanceOf(RollbackIncompleteError);
    const { leftBehind } = err as RollbackIncompleteError;
    expect(leftBehind.rows).toBeGreaterThanOrEqual(1);
    expect(await readIds(table)).toHaveLength(1 + leftBehind.rows);
    await table.delete(leftBehind.deletePredicate!);
    expect(await readIds(table)).toEqual(["r0"]);
  });

  it("a widen that another writer's rows force inside an add (evolveFor) and that rewrites the table is recorded: abort says which rows stay", async () => {
    const uri = fresh();
    const table = await write(uri, sstRows(1));
    const writer = await NdWriter.append(table, { casting: "promote", targetFragmentBytes: 1, writeParallelism: 1 });
    await writer.write(sstRow(1));
    const [first] = writer.versions;
    // Another writer adds chl as Int32; this writer's Float32 chl then needs a widen across kinds: a rewrite.
    const chl = (type?: Int32) =>
      NdArray.from(type === undefined ? new Float32Array([0.5]) : [1], {
        dims: { x: 1 },
        ...(type === undefined ? {} : { type }),
      });
    await append(await open(uri), [new NdRecordBatch({ chl: chl(new Int32()) }, { id: "other" })]);
    await writer.write(new NdRecordBatch({ chl: chl() }, { id: "r2" }));
    const err = await rejection(writer.abort());
    expect(err).toBeInstanceOf(RollbackIncompleteError);
    const { leftBehind, message } = err as RollbackIncompleteError;
    expect(message).toMatch(/rewrote the table/);
    expect(leftBehind).toMatchObject({ versions: [first], rows: 1, restoreVersion: first! - 1 });
    expect(await readIds(await open(uri))).toEqual(["other", "r0", "r1"]);
  });

  it("a widen from another writer that rewrites the table after this writer's adds: abort finds it and names the rows left", async () => {
    const uri = fresh();
    const table = await write(uri, [sstRow(0, { type: new Int32() })]);
    const writer = await NdWriter.append(table, { targetFragmentBytes: 1, writeParallelism: 1 });
    await writer.write(sstRow(1, { type: new Int32() }));
    const [first] = writer.versions;
    await widen(await open(uri), "sst", new Float64()); // Int32 -> Float64: a rewrite, all rows re-created
    const err = await rejection(writer.abort());
    expect(err).toBeInstanceOf(RollbackIncompleteError);
    expect((err as RollbackIncompleteError).leftBehind).toMatchObject({
      versions: [first],
      rows: 1,
      restoreVersion: first! - 1,
    });
    expect((err as RollbackIncompleteError).message).toMatch(/rewrote the table/);
  });

  it("replaceRows appends the new rows, then deletes the old rows the predicate selects; the new rows stay even when they match", async () => {
    const table = await write(fresh(), sstRows(3));
    const { deleted } = await replaceRows(
      table,
      [sstRow(5, { id: "r1" }), sstRow(6)],
      col("__global_attrs__.id").isIn(["r1", "r6"]),
    );
    expect(deleted).toBe(1);
    expect(await readIds(table)).toEqual(["r0", "r1", "r2", "r6"]);
  });

  it("the ledger lists its appends lowest version first, whatever order they are recorded in (adds in flight)", async () => {
    const table = await write(fresh(), sstRows(3));
    const ledger = new CommitLedger(table.uri);
    await ledger.recordAppend(table.lance, 3, 1);
    await ledger.recordAppend(table.lance, 1, 1);
    await ledger.recordAppend(table.lance, 2, 1);
    expect(ledger.versions).toEqual([1, 2, 3]);
  });

  it("replaceRows with adds in flight keeps every new row, whatever order its adds commit in (6 rounds)", async () => {
    // Rows of very different sizes, one row an add, four adds in flight: a
    // small add started after a large one commits before it.
    const row = (round: number, i: number) => {
      const values = new Float32Array(i % 3 === 0 ? 1 << 18 : 4).fill(100 * round + i);
      return new NdRecordBatch({ v: NdArray.from(values, { dims: { x: values.length } }) }, { id: "x" });
    };
    const table = await write(fresh(), [row(0, 0), new NdRecordBatch({}, { id: "keep" })]);
    for (let round = 1; round <= 6; round++) {
      const rows = Array.from({ length: 12 }, (_, i) => row(round, i));
      await replaceRows(table, rows, col("__global_attrs__.id").eq("x"), {
        targetFragmentBytes: 1,
        writeParallelism: 4,
      });
      const firsts = (await scan(table).toArray())
        .filter((r) => r.globalAttr("id") === "x")
        .map((r) => Number(r.get("v")!.values.get(0)))
        .sort((a, b) => a - b);
      expect(firsts, `round ${round}`).toEqual(rows.map((_, i) => 100 * round + i));
      expect(await readIds(table), `round ${round}`).toContain("keep");
    }
  });

  it("replaceRows whose delete fails removes the rows it appended: the table keeps its rows", async () => {
    const table = await write(fresh(), sstRows(2));
    const err = await rejection(replaceRows(table, [sstRow(5)], "nope = 1"));
    expect(err).toMatchObject({ code: "InvalidInput", column: "nope" });
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });
});
