import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { send, startViewer } from "../view/viewer.js";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skip = fixtureSkipReason();

function json<T>(args: string[]): T {
  const run = cli([...args, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

describe.skipIf(skip)("tag and branch", () => {
  let table: string;
  beforeAll(() => {
    ensureFixtures();
    ensureBuilt();
    table = join(tempDir(), "ocean.lance");
    expect(cli(["import", fixture("ocean-classic.nc"), table, "--chunk", "time=1"]).code).toBe(0);
    expect(cli(["import", fixture("waves-nc4.nc"), table, "--mode", "append"]).code).toBe(0);
  });

  it("tag, list, read a branch with --branch on each command, delete; main stays; info shows both", () => {
    const main = json<{ rows: number; version: number; branch: string }>(["info", table]);
    expect(main.branch).toBe("main");
    expect(json(["tag", table, "v1"])).toEqual({ table, tag: "v1", version: main.version });
    expect(json(["tag", table, "first", "1"])).toEqual({ table, tag: "first", version: 1 });
    expect(json(["tag", table])).toEqual([
      { name: "first", version: 1 },
      { name: "v1", version: main.version },
    ]);
    expect(cli(["tag", table]).stdout).toBe(`first  version 1\nv1     version ${main.version}\n`);
    // --version takes a tag name wherever it takes a number.
    expect(json<{ version: number; rows: number }>(["info", table, "--version", "first"]).version).toBe(1);
    expect(json<unknown[]>(["vars", table, "--version", "first"])).toEqual(
      json<unknown[]>(["vars", table, "--version", "1"]),
    );
    expect(cli(["scan", table, "--version", "v1", "--limit", "1"]).code).toBe(0);

    expect(json<{ branch: string; rows: number }>(["branch", table, "trial"])).toMatchObject({
      branch: "trial",
      rows: main.rows,
    });
    expect(json<{ rows: number }>(["branch", table, "old", "--from", "1"]).rows).toBeLessThan(main.rows);
    expect(json(["branch", table])).toEqual([
      { name: "old", parentBranch: null, parentVersion: 1 },
      { name: "trial", parentBranch: null, parentVersion: main.version },
    ]);
    expect(
      json<{ deleted: number }>([
        "delete",
        table,
        "--branch",
        "trial",
        "--where",
        "__global_attrs__.id = 'waves-nc4.nc'",
      ]).deleted,
    ).toBe(1);
    const onBranch = json<{ rows: number; branch: string; tags: unknown[] }>(["info", table, "--branch", "trial"]);
    expect(onBranch).toMatchObject({ branch: "trial", rows: main.rows - 1 });
    expect(cli(["info", table, "--branch", "trial"]).stdout).toMatch(
      /^table {8}.*\nbranch {7}trial\ntags {9}first=1, v1=\d+\n/,
    );
    expect(json<{ version: number }[]>(["versions", table, "--branch", "trial"]).length).toBe(2);
    expect(json<unknown[]>(["vars", table, "--branch", "trial"]).length).toBeGreaterThan(0);
    expect(cli(["scan", table, "--branch", "trial", "--limit", "1"]).code).toBe(0);
    // A branch's versions start at its fork version: restore the fork.
    expect(json<{ version: number }[]>(["versions", table, "--branch", "trial"])[0]!.version).toBe(main.version);
    expect(json<{ rows: number }>(["restore", table, String(main.version), "--branch", "trial"]).rows).toBe(main.rows);
    expect(json<{ rows: number; version: number }>(["info", table])).toMatchObject({
      rows: main.rows,
      version: main.version,
    });

    expect(json(["branch", table, "--delete", "old"])).toEqual({ table, removed: "old" });
    expect(json(["tag", table, "--delete", "first"])).toEqual({ table, removed: "first" });
    expect(json<unknown[]>(["tag", table]).length).toBe(1);
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
    const main = json<{ rows: number; version: number }>(["info", table]);
    json(["branch", table, "imports"]);
    const summary = json<{ branch: string; rows: number; totalRows: number }>([
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
    expect(json<{ rows: number; version: number }>(["info", table])).toMatchObject({
      rows: main.rows,
      version: main.version,
    });
    expect(json<{ rows: number }>(["info", table, "--branch", "imports"]).rows).toBe(summary.totalRows);

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
      const { rows, version } = json<{ rows: number; version: number }>(["info", table, "--branch", "trial"]);
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
