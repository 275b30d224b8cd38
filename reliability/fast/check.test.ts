// check (lance-nd README, "check"): the fast part, in the normal test run;
// reliability/check.test.ts damages tables in more ways.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, check, open, scan, write } from "lance-nd";
import { dataFiles, garble, manifests, truncate } from "../helpers/damage.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const row = (i: number) => new NdRecordBatch({ a: NdArray.from([i, i + 1], { dims: { x: 2 } }) }, { id: `r${i}` });

describe("check", () => {
  it("finds a garbled latest manifest and a truncated data file; repair keeps every row whose data and manifest survived", async () => {
    const uri = path.join(dir, "damaged.lance");
    const table = await write(uri, [row(0), row(1)]);
    await append(table, [row(2)]);
    await append(table, [row(3)]);
    garble(manifests(uri)[0]!);
    truncate(dataFiles(uri)[1]!);
    const report = await check(uri);
    expect(report).toMatchObject({ ok: false, latestVersion: 3, newestReadableVersion: 2, checkedVersion: 2, rows: 3 });
    expect(report.unreadableRows.map((r) => [r.rowId, r.fragment])).toEqual([[2, 1]]);
    const repaired = await check(uri, { repair: true });
    expect(repaired.repair).toMatchObject({ version: 3, ok: true });
    const ids = (await scan(await open(uri)).toArray()).map((r) => r.globalAttr("id"));
    expect(ids).toEqual(["r0", "r1"]);
  });
});
