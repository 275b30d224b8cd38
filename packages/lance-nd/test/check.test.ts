// check (README, "check"): the fast part; reliability/check.test.ts damages
// tables in more ways.
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { check } from "../src/check.js";
import { manifestFiles } from "../src/lance/version-files.js";
import { append, write } from "../src/write.js";
import { open } from "../src/table.js";
import { scan } from "../src/scan.js";
import { dataFiles, garble, manifests, truncate } from "./helpers/damage.js";
import { ids, tempDir } from "./helpers/make-table.js";

const dir = tempDir("check");
const row = (i: number) => new NdRecordBatch({ a: NdArray.from([i, i + 1], { dims: { x: 2 } }) }, { id: `r${i}` });

describe("manifestFiles", () => {
  it("reads both of Lance's manifest names, newest first, and skips other files", () => {
    const folder = path.join(dir, "names.lance");
    mkdirSync(path.join(folder, "_versions"), { recursive: true });
    for (const name of ["18446744073709551613.manifest", "18446744073709551612.manifest", "7.manifest", "latest_version_hint.json", "1.txn"]) {
      writeFileSync(path.join(folder, "_versions", name), "");
    }
    expect(manifestFiles(folder, folder).map((m) => m.version)).toEqual([7, 3, 2]);
  });
});

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
    expect(ids(await scan(await open(uri)).toArray())).toEqual(["r0", "r1"]);
  });
});
