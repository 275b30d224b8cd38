/**
 * Messages that name the real cause, run through the built CLI: a date
 * selection on a table whose time coordinate has a calendar lance-nd cannot
 * place dates on says to give the number (not to import again with the
 * mode the table already has); an import that decodes such times says
 * which `--cf` modes keep the numbers; `info` on a table with a folder it
 * cannot read names that folder instead of calling the table not local.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { boundByFileModes, fileModesSkipReason } from "@lance-nd/test-helpers";
import { CLI, cli, ensureBuilt, tempDir } from "./harness.js";

const hasNcgen = spawnSync("ncgen", ["-h"], { stdio: "ignore" }).error === undefined;
// Outside CI a missing ncgen (netcdf-bin) skips; under CI=true the test runs and fails.
const skip = !hasNcgen && process.env.CI !== "true";

const NOLEAP_CDL = `netcdf noleap {
dimensions:
  time = 3 ; y = 2 ; x = 3 ;
variables:
  double time(time) ;
    time:units = "days since 2000-01-01" ;
    time:calendar = "noleap" ;
  float v(time, y, x) ;
data:
  time = 0, 45, 74 ;
  v = 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6 ;
}
`;

describe.skipIf(skip)("messages name the real cause", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    writeFileSync(join(dir, "noleap.cdl"), NOLEAP_CDL);
    const made = spawnSync("ncgen", ["-o", join(dir, "noleap.nc"), join(dir, "noleap.cdl")], { encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
  });

  it("plot --sel time=<date> on a noleap mask table plots; a date the calendar lacks is one line naming it", () => {
    expect(cli(["import", "noleap.nc", "noleap.lance"], dir).code).toBe(0);
    // 74 days since 2000-01-01 in the noleap calendar is 2000-03-16.
    expect(cli(["plot", "noleap.lance", "v", "--sel", "time=2000-03-16", "-o", "v.png"], dir).code).toBe(0);
    const run = cli(["plot", "noleap.lance", "v", "--sel", "time=2000-02-29", "-o", "v.png"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("2000-02-29 is not a date of the noleap calendar");
    expect(run.stderr).not.toContain("--cf");
    expect(cli(["plot", "noleap.lance", "v", "--sel", "time=45", "-o", "v.png"], dir).code).toBe(0);
  });

  it("import --cf decode of noleap times keeps the numbers with their units and calendar", () => {
    expect(cli(["import", "noleap.nc", "decoded.lance", "--cf", "decode"], dir).code).toBe(0);
    const time = JSON.parse(
      cli(["scan", "decoded.lance", "--project", "time", "--json", "--time-numbers"], dir).stdout,
    ) as {
      arrays: { time: { values: number[]; attrs: Record<string, unknown> } };
    }[];
    expect(time[0]!.arrays.time.values).toEqual([0, 45, 74]);
    expect(time[0]!.arrays.time.attrs).toMatchObject({ units: "days since 2000-01-01", calendar: "noleap" });
  });

  it.skipIf(fileModesSkipReason(import.meta.filename) !== undefined)(
    "info of a table holding a folder it cannot list: one line naming the folder and EACCES",
    () => {
      // Root lists any folder: the run goes bound by file modes then (test-helpers' boundByFileModes).
      const shared = mkdtempSync(join(tmpdir(), "lance-nd-unreadable-"));
      const table = join(shared, "t.lance");
      expect(cli(["import", "noleap.nc", table], dir).code).toBe(0);
      const hidden = join(table, "notes");
      mkdirSync(hidden);
      chmodSync(hidden, 0o311);
      try {
        const [command, ...args] = boundByFileModes([process.execPath, CLI, "info", table]);
        const run = spawnSync(command!, args, { encoding: "utf8" });
        expect(run.status).toBe(1);
        expect(run.stderr.trim().split("\n")).toEqual([
          `lance-nd: cannot read ${table} (cannot read ${hidden} to size the table (EACCES))`,
        ]);
      } finally {
        chmodSync(hidden, 0o755);
        rmSync(shared, { recursive: true, force: true });
      }
    },
  );
});
