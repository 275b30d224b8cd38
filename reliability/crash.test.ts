// Crash test: a child process writing with NdWriter, appending, widening (in
// place and by a rewrite), deleting, compacting or replacing rows is killed
// with SIGKILL at a random (seeded) moment, again and again on one table.
// After each kill the table opens, every version committed since the last
// check reads, no row is partial, every row a child logged as committed is
// there, and every row it logged as deleted is gone. A replace killed
// midway (the commit ledger: append at v, then delete the older copies)
// leaves one or both copies of its rows, never none, and running it again
// leaves one; no other row is ever doubled. Each new version opens and
// counts its rows; up to six of them per kill (seeded choice, always the
// latest) are read in full; after a rewrite's kill `check --repair`
// completes a replay it left pending. Then a rewrite (a widen across kinds)
// races an appender in a process of its own, both killed inside the
// rewrite's replay; `check --repair` completes it (README.md, Widen), and
// every row either process logged is in the latest version exactly once.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@lance-nd/test-helpers";
import { check, col, type NdTable, open, replaceRows, write } from "lance-nd";
import { afterAll, describe, expect, it } from "vitest";
import { killChildren, logLines, startChild } from "./helpers/children.js";
import { count } from "./helpers/counters.js";
import { rowsById } from "./helpers/plain-rows.js";
import { expectedRow, rowFor } from "./helpers/rows.js";

const KILLS = Number(process.env.RELIABILITY_KILLS ?? "20");
const REWRITE_KILLS = Number(process.env.RELIABILITY_REWRITE_KILLS ?? "5");
const OPS = ["writer", "append", "widen", "delete", "replace", "compact", "rewrite"] as const;
const dir = mkdtempSync(join(tmpdir(), "lance-nd-crash-"));
afterAll(() => {
  killChildren();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Every row of `table` is complete and single (up to `most` copies for the
 * ids in `replacing`); returns the ids and their copies.
 */
async function checkRows(
  table: NdTable,
  replacing: ReadonlySet<string> = new Set(),
  most = 2,
): Promise<Map<string, number>> {
  const rows = await rowsById(table, { types: false });
  for (const [id, copies] of rows) {
    expect(copies.length, `copies of row ${id}`).toBeLessThanOrEqual(replacing.has(id) ? most : 1);
    for (const copy of copies) expect(copy, `row ${id}`).toEqual(expectedRow(id));
  }
  count("rowsVerified", rows.size);
  return new Map([...rows].map(([id, copies]) => [id, copies.length]));
}

const byId = (ids: string[]) => col(["__global_attrs__", "id"]).isIn(ids);

describe("SIGKILL at random points", () => {
  it(`${KILLS} kills of writers, widens, rewrites, deletes, replaces and compactions: nothing committed is lost, nothing partial appears`, async () => {
    const uri = join(dir, "crash.lance");
    await write(uri, ["seed-1", "seed-2", "seed-3"].map(rowFor), { stats: true });
    const committed = new Set(["seed-1", "seed-2", "seed-3"]);
    const deleted = new Set<string>();
    // Rows a replace ever touched: a version between its two commits holds both copies (three
    // when the replace runs again after a kill between them).
    const replaced = new Set<string>();
    const random = seededRandom(20_260_101);
    let checkedVersions = 0;

    for (let i = 0; i < KILLS; i++) {
      const op = OPS[i % OPS.length]!;
      const log = join(dir, `log-${i}.txt`);
      const child = startChild("crash-worker", {
        uri,
        op,
        writer: `${op === "widen" || op === "rewrite" ? "w" : "c"}${i}`,
        log,
      });
      await child.ready;
      const delay = 50 + Math.floor(random() * 1_500);
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.process.kill("SIGKILL");
      const { signal, code, stderr } = await child.exited;
      expect(signal ?? `exit ${code}: ${stderr}`).toBe("SIGKILL");
      count("crashes");

      let text = "";
      try {
        text = readFileSync(log, "utf8");
      } catch {
        // killed before its first commit returned
      }
      if (op === "rewrite") {
        // The documented way out of a rewrite killed before its replay ended.
        const report = await check(uri, { repair: true });
        if (report.pendingWidenReplay !== null) count("widenReplays");
        expect(report.repair === null || report.repair.ok, `after kill ${i}: check --repair`).toBe(true);
      }
      // A replace the kill cut: its rows had been logged as `replacing`, not yet as `commit`.
      const cut = new Set<string>();
      for (const [kind, id] of logLines(text)) {
        if (kind === "replacing") {
          cut.add(id);
          replaced.add(id);
          continue;
        }
        cut.delete(id);
        (kind === "commit" ? committed : deleted).add(id);
      }

      const table = await open(uri);
      if (cut.size > 0) {
        // Between or inside the two commits: one or both copies of each row committed before, never none.
        const copies = await checkRows(table, cut);
        const none = [...cut].filter((id) => committed.has(id) && !copies.has(id));
        count("rowsLost", none.length);
        expect(none, `after kill ${i} (replace at ${delay} ms): replaced rows with no copy`).toEqual([]);
        // The documented way out: the same replace again clears the older copies.
        await replaceRows(table, [...cut].map(rowFor), byId([...cut]));
        for (const id of cut) committed.add(id);
      }
      const present = new Set((await checkRows(table)).keys());
      const lost = [...committed].filter((id) => !deleted.has(id) && !present.has(id));
      const resurrected = [...deleted].filter((id) => present.has(id));
      count("rowsLost", lost.length + resurrected.length);
      expect(lost, `after kill ${i} (${op} at ${delay} ms): committed rows missing`).toEqual([]);
      expect(resurrected, `after kill ${i}: deleted rows back`).toEqual([]);

      const all = await table.versions();
      const fresh = all.slice(checkedVersions);
      const full = new Set([
        fresh.at(-1)?.version,
        ...fresh.filter(() => random() < 6 / fresh.length).map((v) => v.version),
      ]);
      for (const v of fresh) {
        const view = await table.checkout(v.version);
        if (full.has(v.version)) await checkRows(view, replaced, 3);
        else expect(await view.countRows()).toBe(Number(v.metadata.total_rows ?? (await view.countRows())));
        count("versionsRead");
      }
      checkedVersions = all.length;
    }
  });

  it(`${REWRITE_KILLS} rewrites racing an appender, killed within 300 ms of the overwrite: check --repair leaves every committed row once`, async () => {
    const uri = join(dir, "rewrite.lance");
    const seeds = ["seed-1", "seed-2", "seed-3"];
    await write(uri, seeds.map(rowFor), { stats: true });
    const committed = new Set(seeds);
    const random = seededRandom(20_260_202);
    for (let i = 0; i < REWRITE_KILLS; i++) {
      const logs = [join(dir, `rewrite-${i}.txt`), join(dir, `rewrite-${i}-appender.txt`)];
      const rewriter = startChild("crash-worker", { uri, op: "rewrite", writer: `wr${i}`, log: logs[0] });
      const appender = startChild("crash-worker", { uri, op: "append", writer: `ar${i}`, log: logs[1] });
      await Promise.all([rewriter.ready, appender.ready]);
      await rewriter.printed("overwrite");
      const delay = Math.floor(random() * 300);
      await new Promise((resolve) => setTimeout(resolve, delay));
      for (const child of [rewriter, appender]) {
        child.process.kill("SIGKILL");
        const { signal, code, stderr } = await child.exited;
        expect(signal ?? `exit ${code}: ${stderr}`).toBe("SIGKILL");
        count("crashes");
      }
      for (const file of logs) {
        try {
          for (const [, id] of logLines(readFileSync(file, "utf8"))) committed.add(id);
        } catch {
          // killed before its first commit returned
        }
      }
      const report = await check(uri, { repair: true });
      if (report.pendingWidenReplay !== null) count("widenReplays");
      expect(report.repair === null || report.repair.ok, `after kill ${i}: check --repair`).toBe(true);
      const present = await checkRows(await open(uri));
      const lost = [...committed].filter((id) => !present.has(id));
      count("rowsLost", lost.length);
      expect(lost, `after kill ${i} (${delay} ms after the overwrite): committed rows missing`).toEqual([]);
    }
  });

  it("a replace killed between its two commits: a reader sees both copies, never none; the next replace clears them", async () => {
    const uri = join(dir, "between.lance");
    const ids = ["b-0", "b-1", "b-2", "b-3"];
    await write(uri, ids.map(rowFor), { stats: true });
    const child = startChild("crash-worker", { uri, op: "replace-pause", writer: "b", log: join(dir, "between.log") });
    await child.printed("appended");
    child.process.kill("SIGKILL");
    expect((await child.exited).signal).toBe("SIGKILL");
    count("crashes");

    const table = await open(uri);
    const replacing = new Set(["b-0", "b-1"]);
    expect(Object.fromEntries(await checkRows(table, replacing))).toEqual({ "b-0": 2, "b-1": 2, "b-2": 1, "b-3": 1 });
    const { deleted } = await replaceRows(table, ["b-0", "b-1"].map(rowFor), byId(["b-0", "b-1"]));
    expect(deleted).toBe(4);
    expect(Object.fromEntries(await checkRows(table))).toEqual({ "b-0": 1, "b-1": 1, "b-2": 1, "b-3": 1 });
    count("rowsLost", 0);
  });
});
