// Crash test: a child process writing with NdWriter, appending, widening,
// deleting or compacting is killed with SIGKILL at a random (seeded) moment,
// again and again on one table. After each kill the table opens, every
// version committed since the last check reads, no row is partial or doubled,
// every row a child logged as committed is there, and every row it logged
// as deleted is gone. Each new version opens and counts its rows; up to six
// of them per kill (seeded choice, always the latest) are read in full.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkout, open, versions, write, type NdTable } from "lance-nd";
import { count } from "./helpers/counters.js";
import { rowsById } from "./helpers/plain-rows.js";
import { killChildren, logLines, seeded, startChild } from "./helpers/children.js";
import { expectedRow, rowFor } from "./helpers/rows.js";

const KILLS = Number(process.env.RELIABILITY_KILLS ?? "20");
const OPS = ["writer", "append", "widen", "delete", "compact"] as const;
const dir = mkdtempSync(join(tmpdir(), "lance-nd-crash-"));
afterAll(() => {
  killChildren();
  rmSync(dir, { recursive: true, force: true });
});

/** Every row of `table` is complete and single; returns the ids. */
async function checkRows(table: NdTable): Promise<Set<string>> {
  const rows = await rowsById(table, { types: false });
  for (const [id, copies] of rows) {
    expect(copies, `row ${id}`).toHaveLength(1);
    expect(copies[0], `row ${id}`).toEqual(expectedRow(id));
  }
  count("rowsVerified", rows.size);
  return new Set(rows.keys());
}

describe("SIGKILL at random points", () => {
  it(`${KILLS} kills of writers, widens, deletes and compactions: nothing committed is lost, nothing partial appears`, async () => {
    const uri = join(dir, "crash.lance");
    await write(uri, ["seed-1", "seed-2", "seed-3"].map(rowFor), { stats: true });
    const committed = new Set(["seed-1", "seed-2", "seed-3"]);
    const deleted = new Set<string>();
    const random = seeded(20_260_101);
    let checkedVersions = 0;

    for (let i = 0; i < KILLS; i++) {
      const op = OPS[i % OPS.length]!;
      const log = join(dir, `log-${i}.txt`);
      const child = startChild("crash-worker", { uri, op, writer: `${op === "widen" ? "w" : "c"}${i}`, log });
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
      for (const [kind, id] of logLines(text)) (kind === "commit" ? committed : deleted).add(id);

      const table = await open(uri);
      const present = await checkRows(table);
      const lost = [...committed].filter((id) => !deleted.has(id) && !present.has(id));
      const resurrected = [...deleted].filter((id) => present.has(id));
      count("rowsLost", lost.length + resurrected.length);
      expect(lost, `after kill ${i} (${op} at ${delay} ms): committed rows missing`).toEqual([]);
      expect(resurrected, `after kill ${i}: deleted rows back`).toEqual([]);

      const all = await versions(table);
      const fresh = all.slice(checkedVersions);
      const full = new Set([
        fresh.at(-1)?.version,
        ...fresh.filter(() => random() < 6 / fresh.length).map((v) => v.version),
      ]);
      for (const v of fresh) {
        const view = await checkout(table, v.version);
        if (full.has(v.version)) await checkRows(view);
        else expect(await view.countRows()).toBe(Number(v.metadata.total_rows ?? (await view.countRows())));
        count("versionsRead");
      }
      checkedVersions = all.length;
    }
  });
});
