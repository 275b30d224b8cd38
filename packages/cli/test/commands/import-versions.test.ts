/**
 * The record of complete imports (lance-nd README, "Version control"): an
 * import makes a version per Lance add, and the ones before its last are
 * half-imports. `versions` marks them, a read of one warns once, `restore`
 * refuses one without `--force`, the library gives `halfImport` on each
 * version, and the record outlives a cleanup of older versions. Files by
 * xarray; small rows and adds make several versions per import.
 */
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { open } from "lance-nd";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skip = pythonSkipReason("xarray oracle", ["numpy", "xarray", "netCDF4"], "apt-get install python3-xarray");
if (skip !== undefined) console.warn(skip);

/** tas(time 4, lat 64, lon 128) of one year: 128 KiB, four rows of 32 KiB. */
const MAKE = `
import sys, numpy as np, xarray as xr
path, year = sys.argv[1], int(sys.argv[2])
tas = np.arange(4 * 64 * 128, dtype="f4").reshape(4, 64, 128) + year
xr.Dataset({"tas": (("time", "lat", "lon"), tas)},
           coords={"time": np.arange(4.0) + 4 * (year - 2000), "lat": np.arange(64.0), "lon": np.arange(128.0)}).to_netcdf(path)
`;

/** Rows of 32 KiB in adds of about 40 KiB: about one version a row. */
const SMALL_ADDS = ["--row-size", "32KiB", "--add-size", "0.04"];

interface VersionJson {
  version: number;
  rows: number;
  halfImport: { completeBefore: number | null; completeAfter: number | null } | null;
}

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  return cli(args);
}

/** A test of many command lines: minutes on a loaded 2-core machine, never a measure of speed. */
const SLOW = 600_000;

describe.skipIf(skip !== undefined)("complete imports and half-import versions; tags where version numbers go", () => {
  let dir: string;
  let table: string;
  let complete: number[];
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    table = join(dir, "tas.lance");
    for (const year of [2000, 2001]) {
      const path = join(dir, `tas_${year}.nc`);
      runPython(["-c", MAKE, path, String(year)]);
      const mode = year === 2000 ? [] : ["--mode", "append"];
      const done = run("import", path, table, ...mode, ...SMALL_ADDS);
      expect(done.code).toBe(0);
    }
    complete = versions()
      .filter((v) => v.halfImport === null)
      .map((v) => v.version);
  }, SLOW);

  function versions(): VersionJson[] {
    const listed = run("versions", table, "--json");
    expect(listed.stderr).toBe("");
    return JSON.parse(listed.stdout) as VersionJson[];
  }

  it(
    "versions marks every version an import made before its last one; the last ones hold all its rows",
    () => {
      const list = versions();
      // Each import ends at the version that holds all its rows: 4, then 8.
      expect(complete).toEqual([list.find((v) => v.rows === 4)!.version, list.find((v) => v.rows === 8)!.version]);
      const [first, second] = complete as [number, number];
      for (const v of list) {
        if (v.version < first) expect(v.halfImport).toEqual({ completeBefore: null, completeAfter: first });
        else if (v.version > first && v.version < second)
          expect(v.halfImport).toEqual({ completeBefore: first, completeAfter: second });
      }
      expect(list.filter((v) => v.halfImport !== null).length).toBeGreaterThan(2);
      const text = run("versions", table).stdout;
      expect(text).toContain(`half an import (complete: ${first}, ${second})`);
    },
    SLOW,
  );

  it(
    "a read of a half-import version prints one warning naming the complete versions around it; a complete one none",
    () => {
      const [first, second] = complete as [number, number];
      const half = versions().find((v) => v.version > first && v.version < second)!.version;
      const read = run("scan", table, "--version", String(half), "--limit", "1");
      expect(read.code).toBe(0);
      expect(read.stderr).toBe(
        `lance-nd: warning: version ${half} of ${table} is half an import (some of its rows); the complete versions around it are ${first} and ${second}\n`,
      );
      expect(run("info", table, "--version", String(first)).stderr).toBe("");
    },
    SLOW,
  );

  it(
    "restore refuses a half-import version without --force and takes a tag where a version number goes",
    () => {
      const [first, second] = complete as [number, number];
      const half = versions().find((v) => v.version > first && v.version < second)!.version;
      const refused = run("restore", table, String(half));
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(
        `version ${half} is half an import (some of its rows); the complete versions around it are ${first} and ${second}`,
      );
      expect(run("tag", table, "year-2000", String(first)).code).toBe(0);
      // A tag goes where a version number goes: tag, branch --from, restore.
      expect(JSON.parse(run("tag", table, "copy", "year-2000", "--json").stdout)).toMatchObject({ version: first });
      expect(run("tag", table, "--delete", "copy").code).toBe(0);
      const branch = run("branch", table, "from-tag", "--from", "year-2000", "--json");
      expect(branch.stderr).toBe("");
      expect(JSON.parse(branch.stdout)).toMatchObject({ branch: "from-tag", rows: 4 });
      expect(run("branch", table, "--delete", "from-tag").code).toBe(0);
      const byTag = run("restore", table, "year-2000", "--json");
      expect(byTag.stderr).toBe("");
      expect(JSON.parse(byTag.stdout)).toMatchObject({ restored: "year-2000", rows: 4 });
      const forced = run("restore", table, String(half), "--force", "--json");
      expect(forced.stderr).toBe("");
      expect(JSON.parse(forced.stdout)).toMatchObject({ restored: half });
      // The records are no tags a user made: `tag` lists the user's only.
      expect(JSON.parse(run("tag", table, "--json").stdout)).toEqual([{ name: "year-2000", version: first }]);
    },
    SLOW,
  );

  it(
    "the library gives halfImport on each version, and the record outlives a cleanup of older versions",
    async () => {
      const lib = await open(table);
      const [first, second] = complete as [number, number];
      const before = await lib.versions();
      expect(before.filter((v) => v.halfImport === null).map((v) => v.version)).toEqual(
        expect.arrayContaining([first, second]),
      );
      // Remove the first import's versions (the tag kept one: it goes first); the second import's half-imports stay.
      if ((await lib.tags()).some((t) => t.name === "year-2000")) await lib.untag("year-2000");
      const cut = before.find((v) => v.version === first + 1)!.timestamp;
      await lib.cleanupOldVersions({ olderThan: cut });
      const after = await lib.versions();
      expect(after.some((v) => v.version <= first)).toBe(false);
      const halves = after.filter((v) => v.version > first && v.version < second);
      expect(halves.length).toBeGreaterThan(0);
      for (const v of halves) expect(v.halfImport).toEqual({ completeBefore: null, completeAfter: second });
      expect(after.find((v) => v.version === second)!.halfImport).toBeNull();
    },
    SLOW,
  );
});
