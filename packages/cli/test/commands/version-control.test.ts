import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { send, startViewer } from "../view/viewer.js";
import { cli, cliJson, ensureBuilt, oceanAndWavesTable, tempDir } from "./harness.js";

const skip = fixtureSkipReason();

describe.skipIf(skip)("tag and branch", () => {
  let table: string;
  beforeAll(() => {
    ensureFixtures();
    ensureBuilt();
    table = oceanAndWavesTable(fixture("ocean-classic.nc"), fixture("waves-nc4.nc"));
  });

  it("tag, list, read a branch with --branch on each command, delete; main stays; info shows both", () => {
    const main = cliJson<{ rows: number; version: number; branch: string }>(["info", table]);
    expect(main.branch).toBe("main");
    expect(cliJson(["tag", table, "v1"])).toEqual({ table, tag: "v1", version: main.version });
    expect(cliJson(["tag", table, "first", "1"])).toEqual({ table, tag: "first", version: 1 });
    expect(cliJson(["tag", table])).toEqual([
      { name: "first", version: 1 },
      { name: "v1", version: main.version },
    ]);
    expect(cli(["tag", table]).stdout).toBe(`first  version 1\nv1     version ${main.version}\n`);
    // --version takes a tag name wherever it takes a number.
    expect(cliJson<{ version: number; rows: number }>(["info", table, "--version", "first"]).version).toBe(1);
    expect(cliJson<unknown[]>(["vars", table, "--version", "first"])).toEqual(
      cliJson<unknown[]>(["vars", table, "--version", "1"]),
    );
    expect(cli(["scan", table, "--version", "v1", "--limit", "1"]).code).toBe(0);

    expect(cliJson<{ branch: string; rows: number }>(["branch", table, "trial"])).toMatchObject({
      branch: "trial",
      rows: main.rows,
    });
    expect(cliJson<{ rows: number }>(["branch", table, "old", "--from", "1"]).rows).toBeLessThan(main.rows);
    expect(cliJson(["branch", table])).toEqual([
      { name: "old", parentBranch: null, parentVersion: 1 },
      { name: "trial", parentBranch: null, parentVersion: main.version },
    ]);
    expect(
      cliJson<{ deleted: number }>([
        "delete",
        table,
        "--branch",
        "trial",
        "--where",
        "__global_attrs__.id = 'waves-nc4.nc'",
      ]).deleted,
    ).toBe(1);
    const onBranch = cliJson<{ rows: number; branch: string; tags: unknown[] }>(["info", table, "--branch", "trial"]);
    expect(onBranch).toMatchObject({ branch: "trial", rows: main.rows - 1 });
    expect(cli(["info", table, "--branch", "trial"]).stdout).toMatch(
      /^table {8}.*\nbranch {7}trial\ntags {9}first=1, v1=\d+\n/,
    );
    expect(cliJson<{ version: number }[]>(["versions", table, "--branch", "trial"]).length).toBe(2);
    expect(cliJson<unknown[]>(["vars", table, "--branch", "trial"]).length).toBeGreaterThan(0);
    expect(cli(["scan", table, "--branch", "trial", "--limit", "1"]).code).toBe(0);
    // A branch's versions start at its fork version: restore the fork.
    expect(cliJson<{ version: number }[]>(["versions", table, "--branch", "trial"])[0]!.version).toBe(main.version);
    expect(cliJson<{ rows: number }>(["restore", table, String(main.version), "--branch", "trial"]).rows).toBe(
      main.rows,
    );
    expect(cliJson<{ rows: number; version: number }>(["info", table])).toMatchObject({
      rows: main.rows,
      version: main.version,
    });

    expect(cliJson(["branch", table, "--delete", "old"])).toEqual({ table, removed: "old" });
    expect(cliJson(["tag", table, "--delete", "first"])).toEqual({ table, removed: "first" });
    expect(cliJson<unknown[]>(["tag", table]).length).toBe(1);
  });

  it("bad names, unknown refs and versions: exit 1 with one line naming them", () => {
    const cases: [string[], RegExp][] = [
      [["tag", table, "v1"], /tag "v1" already exists/],
      [["tag", table, "x", "99"], /version main:99 does not exist/],
      [["tag", table, "bad/name"], /bad tag name "bad\/name"/],
      [["tag", table, "--delete", "nope"], /no tag "nope"/],
      [["branch", table, "trial"], /branch "trial" already exists/],
      [["branch", table, "x", "--from", "nope"], /no branch "nope" to start from/],
      [["branch", table, "--delete", "nope"], /no branch "nope"/],
      [["info", table, "--branch", "nope"], /no branch "nope" \(branches: trial\)\)/],
      [["compact", table, "--branch", "nope"], /no branch "nope"/],
      [["restore", table, "1", "--branch", "trial"], /checkout 1 failed/],
      [["info", table, "--version", "no-such-tag"], /no-such-tag/],
    ];
    for (const [args, message] of cases) {
      const run = cli(args);
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("import --mode append --branch adds rows to the branch only; view --branch serves the branch", async () => {
    const main = cliJson<{ rows: number; version: number }>(["info", table]);
    cliJson(["branch", table, "imports"]);
    const summary = cliJson<{ branch: string; rows: number; totalRows: number }>([
      "import",
      fixture("ocean-64bit.nc"),
      table,
      "--mode",
      "append",
      "--branch",
      "imports",
    ]);
    expect(summary).toMatchObject({ branch: "imports", totalRows: main.rows + summary.rows });
    expect(summary.rows).toBeGreaterThan(0);
    expect(cliJson<{ rows: number; version: number }>(["info", table])).toMatchObject({
      rows: main.rows,
      version: main.version,
    });
    expect(cliJson<{ rows: number }>(["info", table, "--branch", "imports"]).rows).toBe(summary.totalRows);

    const viewer = await startViewer(table, ["--branch", "imports"]);
    try {
      const reply = await send(viewer, `/api/table?token=${viewer.token}`);
      expect(reply.status).toBe(200);
      const served = reply.json() as unknown as { rows: number; datasets: { id: string | null }[] };
      expect(served.rows).toBe(summary.totalRows);
      expect(served.datasets.map((d) => d.id)).toContain("ocean-64bit.nc");
    } finally {
      await viewer.stop();
    }
  });

  it("--branch where it cannot work: import --mode create or overwrite, check; exit 1, one line, nothing written", () => {
    const fresh = join(tempDir(), "fresh.lance");
    const cases: [string[], RegExp][] = [
      [["import", fixture("ocean-nc4.nc"), fresh, "--branch", "trial"], /a new table has no branches/],
      [["import", fixture("ocean-nc4.nc"), table, "--mode", "overwrite", "--branch", "trial"], /overwrite writes main/],
      [["check", table, "--branch", "trial"], /check reads the version manifests of main only/],
    ];
    const state = (): { rows: number; version: number } => {
      const { rows, version } = cliJson<{ rows: number; version: number }>(["info", table, "--branch", "trial"]);
      return { rows, version };
    };
    const before = state();
    for (const [args, message] of cases) {
      const run = cli(args);
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(existsSync(fresh)).toBe(false);
    expect(state()).toEqual(before);
  });
});
