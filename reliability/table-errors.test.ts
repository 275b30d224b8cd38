// Table errors: a table folder removed under an
// open handle is TableNotFound at every entry point; a permission error
// names the file or folder at fault; a filterExpr of 1,000 chained terms runs.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, col, isLanceNdError, open, scan, stat, write, type NdTable } from "lance-nd";
import { boundByFileModes, fileModesSkipReason } from "@lance-nd/test-helpers";
import { count } from "./helpers/counters.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-table-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function row(i: number): NdRecordBatch {
  return new NdRecordBatch({ a: NdArray.from([i, i + 1], { dims: { x: 2 } }) }, { id: `r${i}`, n: i });
}

async function codeOf(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (err) {
    return isLanceNdError(err) ? err.code : `not a LanceNdError: ${String(err)}`;
  }
  return "no error";
}

describe("a table folder removed under an open handle", () => {
  it("is TableNotFound for scan, refresh, version, versions, append, deleteRows and compact", async () => {
    const uri = join(dir, "gone.lance");
    const table = await write(uri, [row(0), row(1)]);
    rmSync(uri, { recursive: true, force: true });
    const calls: Array<[string, (t: NdTable) => Promise<unknown>]> = [
      ["scan", (t) => scan(t).toArray()],
      ["refresh", (t) => t.refresh()],
      ["version", (t) => t.version()],
      ["versions", (t) => t.versions()],
      ["append", (t) => append(t, [row(2)])],
      ["delete", (t) => t.delete(col("__global_attrs__.id").eq("r0"))],
      ["compact", (t) => t.compact()],
    ];
    for (const [name, call] of calls) {
      expect(`${name}: ${await codeOf(() => call(table))}`).toBe(`${name}: TableNotFound`);
      count("badInputs");
    }
  });
});

describe("a permission error names the file or folder", () => {
  // Root ignores file modes, so the probe runs bound by them (test-helpers' boundByFileModes).
  const reason = fileModesSkipReason(import.meta.filename);

  type Probe = { op: "create" | "append" | "scan"; code: string | null; message: string };
  function probe(calls: Array<{ uri: string; op: Probe["op"] }>): Map<string, Probe> {
    const node = [
      process.execPath,
      "--conditions=@lance-nd/source",
      "--import",
      "tsx",
      join("reliability", "children", "permission-probe.ts"),
      JSON.stringify(calls),
    ];
    const command = boundByFileModes(node);
    const run = spawnSync(command[0]!, command.slice(1), {
      cwd: join(import.meta.dirname, ".."),
      encoding: "utf8",
      env: { ...process.env, HOME: tmpdir(), RUST_BACKTRACE: "0" },
    });
    const results = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Probe);
    if (results.length !== calls.length)
      throw new Error(`the probe printed ${results.length} of ${calls.length} results: ${run.stderr.slice(-2000)}`);
    count("processes");
    return new Map(results.map((r) => [r.op, r]));
  }

  it.skipIf(reason !== undefined)(
    "create in a read-only folder, append to a read-only data folder, scan an unreadable data file",
    async () => {
      const base = join(dir, "perm");
      mkdirSync(base);
      chmodSync(dir, 0o755);
      const readOnly = join(base, "read-only");
      mkdirSync(readOnly);
      chmodSync(readOnly, 0o555);
      const uri = join(base, "t.lance");
      await write(uri, [row(0)]);
      const file = join(uri, "data", readdirSync(join(uri, "data"))[0]!);
      chmodSync(file, 0o000);
      chmodSync(join(uri, "data"), 0o555);

      const results = probe([
        { uri: join(readOnly, "new.lance"), op: "create" },
        { uri, op: "append" },
        { uri, op: "scan" },
      ]);
      expect(results.get("create")).toMatchObject({
        code: "WriterFailed",
        message: expect.stringContaining(`"${readOnly}"`),
      });
      expect(results.get("append")).toMatchObject({
        code: "WriterFailed",
        message: expect.stringContaining(join(uri, "data")),
      });
      expect(results.get("scan")?.message).toContain(file);

      chmodSync(join(uri, "data"), 0o755);
      chmodSync(file, 0o644);
      expect((await scan(await open(uri)).toArray()).map((r) => r.globalAttr("id"))).toEqual(["r0"]);
      count("badInputs", 3);
    },
  );
});

describe("long chains of and / or in filterExpr", () => {
  it("1,000 chained .or() and 1,000 chained .and() terms select the right rows", async () => {
    const table = await write(
      join(dir, "chain.lance"),
      Array.from({ length: 40 }, (_, i) => row(i)),
      { stats: true },
    );
    let any = col("__global_attrs__.n").eq(-1);
    for (let i = 0; i < 1000; i++) any = any.or(col("__global_attrs__.n").eq(i % 100 === 7 ? 7 : 1000 + i));
    let all = stat("a").min.ge(0);
    for (let i = 0; i < 1000; i++) all = all.and(col("__global_attrs__.n").ne(i % 10 === 3 ? 3 : 1000 + i));
    const ids = async (filter: typeof any) =>
      (await scan(table).project([]).filterExpr(filter).toArray()).map((r) => r.globalAttr("id"));
    expect(await ids(any)).toEqual(["r7"]);
    expect(await ids(all)).toEqual(Array.from({ length: 40 }, (_, i) => `r${i}`).filter((id) => id !== "r3"));
    expect(await table.delete(any)).toMatchObject({ deleted: 1 });
    count("rowsVerified", 40);
  });
});
