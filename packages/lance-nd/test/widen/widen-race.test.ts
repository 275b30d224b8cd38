// The append side of the widen guarantee (README.md, "Widen and concurrent
// appends"), on the real Lance race made deterministic: an append from a
// handle opened before an in-place widen commits after it (Lance allows
// Append over Merge: SDK-NOTES.md, section 11) and its rows are unreadable;
// undoIfWidenedUnder finds that and removes them, and the table reads again.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { encodeRows } from "@lance-nd/format";
import { Float64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { openCommitHandle } from "../../src/lance/table-open.js";
import { appendRows } from "../../src/lance/table-write.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { undoIfWidenedUnder } from "../../src/widen/widen-race.js";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readIds, sstRow, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("widen-race");
let tables = 0;
const fresh = (): string => path.join(dir, `r${tables++}.lance`);

/** A table of rows r0, r1 and an append of r2 committed from a handle opened before sst was widened to Float64 in place. */
async function racedAppend(): Promise<{ uri: string; version: number; written: ReturnType<typeof encodeRows> }> {
  const uri = fresh();
  const table = await write(uri, sstRows(2), { stats: true });
  const stale = await openCommitHandle(table.lance);
  const written = encodeRows([sstRow(2)], table.tableSchema, { stats: true });
  await widen(await open(uri), "sst", new Float64());
  const version = await appendRows(stale, written);
  stale.sdk.close();
  return { uri, version, written };
}

describe("an append that Lance rebased over a concurrent in-place widen", () => {
  it("commits rows the table cannot read (the Lance behaviour the guarantee works around)", async () => {
    const { uri } = await racedAppend();
    // Read in a child: the read panics inside lancedb, whose panic message
    // goes to the process's stderr, kept here out of the test run's output.
    const read = `
      const { connect } = require("@lancedb/lancedb");
      (async () => {
        const table = await (await connect(${JSON.stringify(path.dirname(uri))})).openTable(${JSON.stringify(path.basename(uri, ".lance"))});
        await table.query().toArray();
        console.log("read");
      })().catch((err) => console.log("failed:", String(err.message).split("\\n")[0]));`;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["-e", read], {
      cwd: path.join(import.meta.dirname, "..", ".."),
      env: { ...process.env, RUST_BACKTRACE: "0" },
    });
    expect(stdout.trim()).toBe("failed: Panic in async function");
    expect(stderr).toContain('Found unmasked nulls for non-nullable StructArray field \\"values\\"');
  });

  it("undoIfWidenedUnder removes exactly its rows and asks for a retry; the table reads again with every earlier row", async () => {
    const { uri, version, written } = await racedAppend();
    const table = await open(uri);
    const err = await failure(undoIfWidenedUnder(table.lance, written.schema, version, 1));
    expect(err).toMatchObject({ code: "CommitConflict", retryable: true });
    expect(await readIds(table)).toEqual(["r0", "r1"]);
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
  });

  it("an append whose table kept its types is left alone", async () => {
    const uri = fresh();
    const table = await write(uri, sstRows(1));
    const written = encodeRows([sstRow(1)], table.tableSchema);
    const version = await appendRows(table.lance, written);
    await undoIfWidenedUnder(table.lance, written.schema, version, 1);
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });
});
