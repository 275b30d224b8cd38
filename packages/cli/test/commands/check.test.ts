import { readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { connect } from "@lancedb/lancedb";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { Float64, Int32 } from "apache-arrow";
import { append, col, indexGlobalAttr, open, write } from "lance-nd";
import { widenTable } from "lance-nd/internal";
import { cli, ensureBuilt, tableState, tempDir } from "./harness.js";

const row = (i: number) => new NdRecordBatch({ a: NdArray.from([i, i + 0.5], { dims: { x: 2 } }) }, { id: `r${i}` });

/** data/ocean.lance in a fresh folder: three commits of 2 rows. */
async function table(): Promise<{ cwd: string; uri: string }> {
  const cwd = tempDir();
  const uri = join(cwd, "data", "ocean.lance");
  const t = await write(uri, [row(0), row(1)]);
  await append(t, [row(2), row(3)]);
  await append(t, [row(4), row(5)]);
  return { cwd, uri };
}

const newest = (dir: string, pick: (files: string[]) => string) => join(dir, pick(readdirSync(dir)));

describe("lance-nd check", () => {
  beforeAll(() => ensureBuilt());

  it("the --help examples run as typed on a healthy table: exit 0, the report or its JSON", async () => {
    const { cwd } = await table();
    const plain = cli(["check", "data/ocean.lance"], cwd);
    expect(plain).toMatchObject({ code: 0, stderr: "" });
    expect(plain.stdout).toMatch(
      /^data\/ocean\.lance: ok\nversions: 3 of 3 open; latest 3, newest readable 3\nrows of version 3: 6 in 3 fragments, 0 unreadable\n$/,
    );
    const json = cli(["check", "data/ocean.lance", "--repair", "--json"], cwd);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, rows: 6, repair: null });
  });

  it("a garbled latest manifest and a truncated data file: exit 1 with one line; --repair lists what it removed and leaves a readable table", async () => {
    const { cwd, uri } = await table();
    writeFileSync(
      newest(join(uri, "_versions"), (f) => f.filter((x) => x.endsWith(".manifest")).sort()[0]!),
      "garbage",
    );
    const data = join(uri, "data");
    const oldest = newest(
      data,
      (f) => f.sort((a, b) => statSync(join(data, a)).mtimeMs - statSync(join(data, b)).mtimeMs)[0]!,
    );
    truncateSync(oldest, Math.floor(statSync(oldest).size / 2));

    const found = cli(["check", "data/ocean.lance"], cwd);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(/: DAMAGED\n/);
    expect(found.stdout).toMatch(/version 3 does not open: /);
    expect(found.stdout).toMatch(/rows of version 2: 4 in 2 fragments, 2 unreadable/);
    expect(found.stderr.trim().split("\n")).toHaveLength(1);
    expect(found.stderr).toMatch(
      /^lance-nd: cannot check data\/ocean\.lance \(data\/ocean\.lance is damaged: 1 version does not open, 1 damaged file, 2 unreadable rows \(run lance-nd check data\/ocean\.lance --repair\)\)$/m,
    );

    const repaired = cli(["check", "data/ocean.lance", "--repair", "--json"], cwd);
    expect(repaired.stderr).toBe("");
    expect(repaired.code).toBe(0);
    const report = JSON.parse(repaired.stdout) as {
      repair: { quarantined: string[]; deletedRows: { rowId: number }[]; ok: boolean };
    };
    expect(report.repair.ok).toBe(true);
    expect(report.repair.quarantined).toHaveLength(1);
    expect(report.repair.deletedRows.map((r) => r.rowId)).toEqual([0, 1]);
    expect(tableState(uri).rows).toBe(2);
    expect(cli(["check", "data/ocean.lance"], cwd).code).toBe(0);
  });

  it("a widen stopped after its rewrite's overwrite: exit 1 naming the pending replay; --repair completes it", async () => {
    const cwd = tempDir();
    const uri = join(cwd, "data", "ocean.lance");
    const int32Row = (i: number) =>
      new NdRecordBatch({ a: NdArray.from([i, i + 1], { dims: { x: 2 }, type: new Int32() }) }, { id: `r${i}` });
    const t = await write(uri, [int32Row(0)]);
    // The hook stands in for a kill right after the overwrite (test/widen-replay.test.ts kills a real process there).
    const stop = async (step: string) => {
      if (step === "overwrite") throw new Error("stopped after the overwrite");
    };
    await expect(widenTable(t, "a", new Float64(), { afterStep: stop })).rejects.toThrow("stopped");
    const found = cli(["check", "data/ocean.lance"], cwd);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(
      /note: a widen of "a" was killed before it closed its replay record \(nothing to replay\)/,
    );
    expect(found.stderr).toMatch(
      /a killed widen's replay is pending \(run lance-nd check data\/ocean\.lance --repair\)/,
    );
    const repaired = cli(["check", "data/ocean.lance", "--repair"], cwd);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(
      /repair: completed the widen of "a": nothing to replay on its rewrite \(version 2\)/,
    );
    expect(cli(["check", "data/ocean.lance"], cwd).code).toBe(0);
  });

  it("a missing deletion file and a deleted key index page: exit 1 naming both; --repair drops the fragment, rebuilds the index", async () => {
    const { cwd, uri } = await table();
    const lance = await open(uri);
    await indexGlobalAttr(lance, "id");
    await lance.delete(col("__global_attrs__.id").eq("r2"));
    const deletions = join(uri, "_deletions");
    const deletion = join(deletions, readdirSync(deletions)[0]!);
    rmSync(deletion);
    const indices = join(uri, "_indices");
    const lookup = join(indices, readdirSync(indices)[0]!, "page_lookup.lance");
    rmSync(lookup);

    const found = cli(["check", "data/ocean.lance"], cwd);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain(
      `damaged deletion file of fragment 1: ${deletion}: missing (the file does not exist)`,
    );
    expect(found.stdout).toContain(`damaged file of key index __global_attrs__.id_idx: ${lookup}: missing`);
    expect(found.stderr.trim().split("\n")).toHaveLength(1);
    expect(found.stderr).toMatch(/is damaged: 2 damaged files \(run lance-nd check data\/ocean\.lance --repair\)\)$/m);

    const repaired = cli(["check", "data/ocean.lance", "--repair"], cwd);
    expect(repaired.stderr).toBe("");
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(
      /repair: removed fragment 1 \(1 row\): its deletion file .* was lost, so which of its rows were deleted is unknown/,
    );
    expect(repaired.stdout).toContain("repair: rebuilt key index on __global_attrs__.id");
    expect(repaired.stdout).toMatch(/a new check finds nothing\n$/);
    expect(tableState(uri).rows).toBe(4);
    expect(cli(["check", "data/ocean.lance"], cwd).code).toBe(0);
  });

  it("--deep: exit 0 on a whole table; a value flipped on disk past its row's max is exit 1 naming the row", async () => {
    const cwd = tempDir();
    const uri = join(cwd, "data", "ocean.lance");
    // Doubles spread over many binades are stored as they are (SDK-NOTES.md, section 25), so one can be found on disk.
    const values = (i: number) =>
      Float64Array.from({ length: 64 }, (_, k) => Math.abs(Math.sin(1 + i * 64 + k)) * 199998);
    const batch = (i: number) =>
      new NdRecordBatch({ v: NdArray.from(values(i), { dims: { x: 64 } }) }, { id: `r${i}` });
    await write(uri, [batch(0), batch(1)], { stats: true });
    expect(cli(["check", "data/ocean.lance", "--deep"], cwd)).toMatchObject({ code: 0, stderr: "" });

    const data = join(uri, "data");
    const file = join(data, readdirSync(data)[0]!);
    const bytes = readFileSync(file);
    const needle = Buffer.alloc(8);
    needle.writeDoubleLE(values(1)[5]!);
    const at = bytes.indexOf(needle);
    expect(at).toBeGreaterThan(0);
    bytes.writeDoubleLE(1e30, at);
    writeFileSync(file, bytes);
    expect(cli(["check", "data/ocean.lance"], cwd).code).toBe(0);
    const deep = cli(["check", "data/ocean.lance", "--deep"], cwd);
    expect(deep.code).toBe(1);
    expect(deep.stdout).toContain("deep: 1 row whose values contradict their stats");
    expect(deep.stdout).toMatch(/ {2}row id 1, v: values [\d.]+\.\.1e\+30, stats [\d.]+\.\.1\d{5}\.\d+\n/);
    expect(deep.stderr).toMatch(/is damaged: 1 row contradicting its stats \(--repair removes no row for its values/);
  });

  it("--deep compares each current layout with its dataset: exit 0 when they agree; a layout value changed behind lance-nd's back is exit 1 naming the layout and variable", async () => {
    const cwd = tempDir();
    const uri = join(cwd, "data", "ocean.lance");
    const v = NdArray.from(
      Float64Array.from({ length: 4 * 6 }, (_, i) => i),
      { dims: { t: 4, x: 6 } },
    );
    await write(uri, chunk(new NdRecordBatch({ v }, { id: "d.nc" }), { t: 1 }), { stats: true });
    expect(
      cli(["rechunk", "data/ocean.lance", "--id", "d.nc", "--chunk", "t=all,x=2", "--name", "series"], cwd).code,
    ).toBe(0);
    expect(cli(["check", "data/ocean.lance", "--deep"], cwd)).toMatchObject({ code: 0, stderr: "" });

    // One row of the layout deleted and added again with one value changed (its completion record as it was).
    const raw = await (await connect(join(cwd, "data"))).openTable("ocean");
    try {
      const all = await raw.query().withRowId().toArrow();
      const batch = all.batches.find((b) => b.toArray().some((r) => r.__global_attrs__?.id === "d.nc@series"))!;
      const row = batch.toArray().findIndex((r) => r.__global_attrs__?.id === "d.nc@series");
      const values = batch.getChild("v")!.getChild("values")!.data[0]!;
      (values.children[0]!.values as Float64Array)[values.valueOffsets[row]! + 1]! += 0.25;
      const one = new (all.constructor as new (b: typeof batch) => typeof all)(batch.slice(row, row + 1));
      await raw.delete(`_rowid = ${String(batch.getChild("_rowid")!.get(row))}`);
      await raw.add(one.select(batch.schema.fields.map((f) => f.name).filter((f) => f !== "_rowid")));
    } finally {
      raw.close();
    }
    expect(cli(["check", "data/ocean.lance"], cwd).code).toBe(0);
    const deep = cli(["check", "data/ocean.lance", "--deep"], cwd);
    expect(deep.code).toBe(1);
    expect(deep.stdout).toMatch(/: DAMAGED\n/);
    expect(deep.stdout).toContain("deep: 1 layout region whose values differ from the dataset's");
    expect(deep.stdout).toMatch(
      /\n {2}layout series of d\.nc, v, t 0\.\.4, x \d\.\.\d: 1 value differs; the first at \[\d, \d\] of the region is \d+\.25 in the layout, \d+ in the source\n/,
    );
    expect(deep.stderr.trim().split("\n")).toHaveLength(1);
    expect(deep.stderr).toMatch(
      /is damaged: 1 layout region differing from its dataset \(when the dataset's values are the right ones, lance-nd rechunk data\/ocean\.lance --id d\.nc --name series --refresh rewrites the layout\)\)$/m,
    );
    const json = JSON.parse(cli(["check", "data/ocean.lance", "--deep", "--json"], cwd).stdout);
    expect(json.layoutMismatches).toEqual([expect.objectContaining({ id: "d.nc", layout: "series", variable: "v" })]);
    // The hint runs as typed and leaves a whole table.
    expect(cli(["rechunk", "data/ocean.lance", "--id", "d.nc", "--name", "series", "--refresh"], cwd).code).toBe(0);
    expect(cli(["check", "data/ocean.lance", "--deep"], cwd)).toMatchObject({ code: 0, stderr: "" });
  });
});
