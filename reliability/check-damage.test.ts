// check (lance-nd README, "check"): every kind of damage is found, and
// `--repair` removes only proven damage. A file this process cannot read
// (a file of mode 0000, read through the built command bound by file modes) is
// reported and never removed; a lost deletion file, a damaged key index and
// a value that contradicts its row's stats are found, and the first two
// repaired.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { boundByFileModes, fileModesSkipReason, seededRandom } from "@lance-nd/test-helpers";
import { Float64 } from "apache-arrow";
import { append, type CheckReport, check, col, indexGlobalAttr, open, scan, write } from "lance-nd";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { rowFor } from "./helpers/rows.js";
import { expectWhole } from "./helpers/whole-table.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-check-damage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Three commits of 3 rows (fragments 0, 1, 2), a key index on id, and one
// deleted row of fragment 1 (so it has a deletion file).
const FRAGMENTS = [
  ["d-0", "d-1", "d-2"],
  ["d-3", "d-4", "d-5"],
  ["d-6", "d-7", "d-8"],
];
const DELETED = "d-4";
const LIVE = FRAGMENTS.flat().filter((id) => id !== DELETED);

async function indexedTable(name: string): Promise<string> {
  const uri = join(dir, `${name}.lance`);
  const table = await write(uri, FRAGMENTS[0]!.map(rowFor), { stats: true });
  for (const ids of FRAGMENTS.slice(1)) await append(table, ids.map(rowFor));
  await indexGlobalAttr(table, "id");
  await table.delete(col("__global_attrs__.id").eq(DELETED));
  return uri;
}

/** Every file under `<uri>/<folder>`, recursively. */
function filesUnder(uri: string, folder: string): string[] {
  return readdirSync(join(uri, folder), { recursive: true, encoding: "utf8" })
    .map((f) => join(uri, folder, f))
    .filter((f) => statSync(f).isFile());
}

/** Overwrites the middle third of a file with 0xff bytes, keeping its size, head and tail. */
function garbleMiddle(file: string): void {
  const bytes = readFileSync(file);
  const third = Math.floor(bytes.length / 3);
  bytes.fill(0xff, third, 2 * third);
  writeFileSync(file, bytes);
}

const deletionFile = (uri: string): string => filesUnder(uri, "_deletions")[0]!;
const indexFile = (uri: string, name: string): string => filesUnder(uri, "_indices").find((f) => f.endsWith(name))!;

/** The ids a filter on the key index finds (a read by id). */
async function readById(uri: string, id: string): Promise<unknown[]> {
  const rows = await scan(await open(uri))
    .filterExpr(col("__global_attrs__.id").eq(id))
    .toArray();
  return rows.map((r) => r.globalAttr("id"));
}

describe("a file this process cannot read is not damage: check --repair removes nothing", () => {
  // Root ignores file modes, so the command runs bound by them (test-helpers' boundByFileModes).
  const reason = fileModesSkipReason(import.meta.filename);
  const RUNS = 10;

  it.skipIf(reason !== undefined)(
    `${RUNS} seeded runs, one unreadable data, deletion or index file each: exit 1 naming it, every row present`,
    async () => {
      requireBuiltCli();
      chmodSync(dir, 0o755);
      const random = seededRandom(2028);
      for (let run = 0; run < RUNS; run++) {
        const uri = await indexedTable(`unreadable-${run}`);
        // Each kind in turn (data, deletion, index file), a seeded file of it.
        const kinds = [filesUnder(uri, "data"), [deletionFile(uri)], filesUnder(uri, "_indices")];
        const candidates = kinds[run % kinds.length]!;
        const file = candidates[Math.floor(random() * candidates.length)]!;
        chmodSync(file, 0o000);

        const command = [CLI, "check", uri, "--repair", "--json"];
        const argv = boundByFileModes([process.execPath, ...command]);
        const result = spawnSync(argv[0]!, argv.slice(1), {
          encoding: "utf8",
          env: { ...process.env, HOME: tmpdir(), RUST_BACKTRACE: "0" },
        });
        count("processes");
        expect(result.status, `${file}: ${result.stderr}`).toBe(1);
        expect(result.stderr).toMatch(/file that could not be read \(not damage\)/);
        const report = JSON.parse(result.stdout) as CheckReport;
        expect(report.inaccessibleFiles.map((f) => [f.path, f.cause.startsWith("EACCES")])).toEqual([[file, true]]);
        expect(report.damagedFiles).toEqual([]);
        expect(report.unreadableRows).toEqual([]);
        expect(report.repair).toMatchObject({
          droppedFragments: [],
          deletedRows: [],
          rebuiltIndexes: [],
          ok: false,
        });

        chmodSync(file, 0o644);
        await expectWhole(uri, LIVE);
        expect((await check(uri)).ok).toBe(true);
        count("rowsLost", 0);
      }
    },
  );
});

describe("a manifest, _versions/, a tag or _refs/tags/ this process cannot read is not damage: check names it, removes nothing", () => {
  // Root ignores file modes, so the command runs bound by them (test-helpers' boundByFileModes).
  const reason = fileModesSkipReason(import.meta.filename);
  const cases = [
    { what: "the latest manifest", slug: "manifest", mode: 0o644, target: (uri: string) => latestManifest(uri) },
    { what: "the _versions/ folder", slug: "versions", mode: 0o755, target: (uri: string) => join(uri, "_versions") },
    { what: "a tag file", slug: "tag", mode: 0o644, target: (uri: string) => join(uri, "_refs", "tags", "keep.json") },
    { what: "the _refs/tags/ folder", slug: "tags", mode: 0o755, target: (uri: string) => join(uri, "_refs", "tags") },
  ] as const;

  for (const { what, slug, mode, target: targetOf } of cases) {
    it.skipIf(reason !== undefined)(
      `${what}: check --repair exits 1 naming it and saying nothing was removed, info names it; every version, tag and row kept`,
      async () => {
        requireBuiltCli();
        chmodSync(dir, 0o755);
        const uri = await indexedTable(`unreadable-${slug}`);
        await (await open(uri)).tag("keep", 1);
        const versions = readdirSync(join(uri, "_versions")).sort();
        const target = targetOf(uri);
        chmodSync(target, 0o000);
        const run = (command: string[]) => {
          const argv = boundByFileModes([process.execPath, CLI, ...command]);
          count("processes");
          return spawnSync(argv[0]!, argv.slice(1), {
            encoding: "utf8",
            env: { ...process.env, HOME: tmpdir(), RUST_BACKTRACE: "0" },
          });
        };
        const result = run(["check", uri, "--repair"]);
        const info = run(["info", uri]);
        chmodSync(target, mode);
        expect(result.status, result.stderr).toBe(1);
        expect(result.stderr).not.toContain("unexpected error");
        expect(result.stderr).toMatch(
          /could not be checked whole: 1 file that could not be read \(not damage\); nothing was removed/,
        );
        expect(result.stdout).toContain(`${uri}: NOT CHECKED WHOLE`);
        expect(result.stdout).toContain(`(not damage, nothing removed): ${target}`);
        expect(result.stdout).toMatch(/EACCES|Permission denied/);
        expect(info.status, info.stderr).toBe(1);
        expect(info.stderr).not.toContain("unexpected error");
        expect(info.stderr).toContain(target);
        expect(readdirSync(join(uri, "_versions")).sort()).toEqual(versions);
        expect((await (await open(uri)).tags()).map((t) => t.name)).toEqual(["keep"]);
        await expectWhole(uri, LIVE);
        count("rowsLost", 0);
      },
    );
  }
});

/** The latest manifest of a local table (Lance numbers them downwards, so the first by name). */
function latestManifest(uri: string): string {
  return join(
    uri,
    "_versions",
    readdirSync(join(uri, "_versions"))
      .sort()
      .find((f) => f.endsWith(".manifest"))!,
  );
}

describe("a lost deletion file: check names it, repair makes the rest readable", () => {
  for (const [what, damage] of [
    ["missing", (file: string) => rmSync(file)],
    ["truncated", (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2))],
    // The Arrow frame stays whole: Lance names the file when it fails on the batch.
    ["garbled", (file: string) => garbleMiddle(file)],
  ] as const) {
    it(`a ${what} deletion file: every scan fails; check names fragment 1 and the file; repair drops fragment 1 and lists it`, async () => {
      const uri = await indexedTable(`deletion-${what}`);
      const file = deletionFile(uri);
      damage(file);
      await expect(scan(await open(uri)).toArray()).rejects.toThrow();

      const report = await check(uri);
      expect(report).toMatchObject({ ok: false, checkedVersion: 5, rows: 8, unreadableRows: [], repair: null });
      expect(report.damagedFiles).toEqual([
        expect.objectContaining({
          path: file,
          kind: "deletion",
          fragment: 1,
          problem: what === "missing" ? "missing" : "undecodable",
        }),
      ]);

      const repaired = await check(uri, { repair: true });
      expect(repaired.repair).toMatchObject({ deletedRows: [], rebuiltIndexes: [], ok: true });
      expect(repaired.repair!.droppedFragments).toEqual([
        expect.objectContaining({ fragment: 1, deletionFile: file, rows: 2 }),
      ]);
      await expectWhole(uri, [...FRAGMENTS[0]!, ...FRAGMENTS[2]!]);
      expect(await readById(uri, "d-7")).toEqual(["d-7"]);
      expect((await check(uri)).ok).toBe(true);
    });
  }
});

describe("a damaged key index: check finds it, repair rebuilds it", () => {
  for (const [what, damage] of [
    ["deleted page_lookup", (uri: string) => rmSync(indexFile(uri, "page_lookup.lance"))],
    ["truncated page_data", (uri: string) => truncateSync(indexFile(uri, "page_data.lance"), 100)],
  ] as const) {
    it(`a ${what}: every read by id fails; check reports the index; repair rebuilds it and reads by id work`, async () => {
      const uri = await indexedTable(`index-${what.replace(" ", "-")}`);
      damage(uri);
      await expect(readById(uri, "d-0")).rejects.toThrow();

      const report = await check(uri);
      expect(report).toMatchObject({ ok: false, rows: 8, unreadableRows: [] });
      expect(report.damagedIndexes).toEqual([
        expect.objectContaining({ name: "__global_attrs__.id_idx", column: "__global_attrs__.id" }),
      ]);

      const repaired = await check(uri, { repair: true });
      expect(repaired.repair).toMatchObject({ deletedRows: [], droppedFragments: [], ok: true });
      expect(repaired.repair!.rebuiltIndexes.map((i) => i.column)).toEqual(["__global_attrs__.id"]);
      for (const id of LIVE) expect(await readById(uri, id)).toEqual([id]);
      await expectWhole(uri, LIVE);
    });
  }
});

describe("a truncated data file of rows a key index does not cover yet", () => {
  it("the rows are unreadable, the index is not called damaged; repair deletes exactly them and the index answers", async () => {
    const uri = await indexedTable("unindexed-truncated");
    await append(await open(uri), ["d-9", "d-10"].map(rowFor));
    const newest = filesUnder(uri, "data")
      .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
      .at(-1)!;
    truncateSync(newest, Math.floor(statSync(newest).size / 2));

    const report = await check(uri);
    expect(report).toMatchObject({ ok: false, damagedIndexes: [], inaccessibleFiles: [] });
    expect(report.damagedFiles).toEqual([
      expect.objectContaining({ path: newest, kind: "data", problem: "truncated" }),
    ]);
    expect(report.unreadableRows.map((r) => r.fragment)).toEqual([3, 3]);

    const repaired = await check(uri, { repair: true });
    expect(repaired.repair).toMatchObject({ droppedFragments: [], rebuiltIndexes: [], ok: true });
    expect(repaired.repair!.deletedRows).toHaveLength(2);
    await expectWhole(uri, LIVE);
    expect(await readById(uri, "d-8")).toEqual(["d-8"]);
  });
});

describe("check --deep: a value that contradicts its row's stats", () => {
  it("a float flipped to 1e30 on disk passes check and is reported by --deep; repair removes nothing", async () => {
    const random = seededRandom(28);
    const values = (i: number) =>
      Float64Array.from({ length: 64 }, (_, k) => (i === 1 && k === 9 ? 199999 : random() * 199998));
    const rows = [0, 1, 2].map(
      (i) =>
        new NdRecordBatch({ v: NdArray.from(values(i), { dims: { x: 64 }, type: new Float64() }) }, { id: `s-${i}` }),
    );
    const uri = join(dir, "deep.lance");
    await write(uri, rows, { stats: true });
    // Lance stores these doubles as they are: overwrite the bytes of one value of row 1.
    const target = rows[1]!.get("v")!.values.get(20) as number;
    const file = filesUnder(uri, "data")[0]!;
    const bytes = readFileSync(file);
    const needle = Buffer.alloc(8);
    needle.writeDoubleLE(target);
    const at = bytes.indexOf(needle);
    expect(at).toBeGreaterThan(0);
    expect(bytes.indexOf(needle, at + 1)).toBe(-1);
    bytes.writeDoubleLE(1e30, at);
    writeFileSync(file, bytes);

    expect((await check(uri)).ok).toBe(true);
    const report = await check(uri, { deep: true, repair: true });
    expect(report.ok).toBe(false);
    expect(report.statsMismatches).toEqual([
      {
        rowId: 1,
        variable: "v",
        stored: expect.objectContaining({ max: "199999" }),
        values: expect.objectContaining({ max: "1e+30" }),
      },
    ]);
    expect(report.repair).toMatchObject({ deletedRows: [], droppedFragments: [], rebuiltIndexes: [], ok: false });
    expect((await scan(await open(uri)).toArray()).length).toBe(3);
  });
});
