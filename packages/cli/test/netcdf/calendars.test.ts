import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runPython, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cliQuiet } from "../commands/checked-runs.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { fixtureSkipReason } from "../fixtures.js";
import { pythonSkipReason } from "./oracle.js";

const skip = pythonSkipReason() ?? (process.env.CI === "true" ? undefined : fixtureSkipReason());
const ORACLE = fileURLToPath(new URL("../../scripts/cftime-oracle.py", import.meta.url));

/** Every CF calendar spelling, each a time coordinate counting days since 2000-01-01. */
const CALENDARS = [
  "standard",
  "gregorian",
  "proleptic_gregorian",
  "julian",
  "noleap",
  "365_day",
  "all_leap",
  "366_day",
  "360_day",
];
/** 2000-02-28, 29, 30 where they exist, 1 March, noon, and a year on. */
const DAYS = [0, 58, 59, 59.5, 60, 365, 366];
const GREGORIAN = new Set(["standard", "gregorian", "proleptic_gregorian"]);
const SELECTIONS = [
  "t_360_day=2000-02-28:2000-03-01",
  "t_noleap=2000-02-27:2000-03-02",
  "t_julian=2000-02-28:2000-03-01",
];

/** A netCDF file with one time coordinate a calendar (with time bounds on noleap), a 1500 standard one, and a 3-D tas on 360_day. */
function cdl(): string {
  const dims = CALENDARS.map((c) => `  t_${c} = ${DAYS.length} ;`).join("\n");
  const vars = CALENDARS.map(
    (c) =>
      `  double t_${c}(t_${c}) ;\n    t_${c}:units = "days since 2000-01-01" ;\n    t_${c}:calendar = "${c}" ;` +
      (c === "noleap" ? '\n    t_noleap:bounds = "t_noleap_bnds" ;' : ""),
  ).join("\n");
  const data = CALENDARS.map((c) => `  t_${c} = ${DAYS.join(", ")} ;`).join("\n");
  const bounds = DAYS.flatMap((d) => [d, d + 1]).join(", ");
  return `netcdf calendars {
dimensions:
${dims}
  t_old = 2 ; bnds = 2 ; y = 2 ; x = 3 ;
variables:
${vars}
  double t_noleap_bnds(t_noleap, bnds) ;
  int t_old(t_old) ;
    t_old:units = "days since 1500-02-28" ;
  float tas(t_360_day, y, x) ;
data:
${data}
  t_noleap_bnds = ${bounds} ;
  t_old = 0, 1 ;
  tas = ${Array.from({ length: DAYS.length * 6 }, (_, i) => i).join(", ")} ;
}
`;
}

interface JsonRow {
  arrays: Record<string, { type: string; values: unknown[] }>;
}

describe.skipIf(skip !== undefined)(
  `times in every CF calendar, compared with xarray's cftime decoding${skip ? ` (${skip})` : ""}`,
  () => {
    let dir: string;
    let file: string;
    let oracle: { times: Record<string, string[]>; selections: Record<string, string[]> };
    const table = (mode: string) => join(dir, `calendars-${mode}.lance`);
    const scan = (mode: string, ...args: string[]) =>
      JSON.parse(cliQuiet(["scan", table(mode), "--json", ...args])) as JsonRow[];
    /** xarray's text of a date (`2000-02-30 00:00:00`) as the command line prints one of `calendar`. */
    const printed = (calendar: string, text: string) => (GREGORIAN.has(calendar) ? `${text.replace(" ", "T")}Z` : text);

    beforeAll(() => {
      ensureBuilt();
      dir = tempDir();
      writeFileSync(join(dir, "calendars.cdl"), cdl());
      file = join(dir, "calendars.nc");
      runTool("ncgen", ["-4", "-o", file, join(dir, "calendars.cdl")]);
      for (const mode of ["decode", "mask"]) cliQuiet(["import", file, table(mode), "--cf", mode]);
      oracle = JSON.parse(runPython([ORACLE, file, ...SELECTIONS])) as typeof oracle;
    });

    it("--cf decode and mask: every calendar's times print as xarray's dates (ISO 8601 with Z where Gregorian), time bounds too", () => {
      for (const mode of ["decode", "mask"]) {
        const [row] = scan(mode);
        for (const calendar of CALENDARS) {
          const time = row!.arrays[`t_${calendar}`]!;
          const where = `${mode} ${calendar}`;
          expect(time.values, where).toEqual(oracle.times[`t_${calendar}`]!.map((t) => printed(calendar, t)));
          expect(time.type, where).toBe(
            mode === "decode" && GREGORIAN.has(calendar) ? "Timestamp<NANOSECOND, UTC>" : "Float64",
          );
        }
        // Julian dates of a standard calendar before 1582 keep their numbers and print as cftime does.
        expect(row!.arrays.t_old!.values).toEqual(oracle.times.t_old);
        if (mode === "decode") expect(row!.arrays.t_noleap_bnds!.values).toEqual(oracle.times.t_noleap_bnds);
      }
    });

    it("--time-numbers keeps the stored numbers; the text lines show 30 February of 360_day", () => {
      const [row] = scan("decode", "--time-numbers", "--project", "t_360_day,t_noleap_bnds");
      expect(row!.arrays.t_360_day!.values).toEqual(DAYS);
      expect(row!.arrays.t_noleap_bnds!.values).toEqual(DAYS.flatMap((d) => [d, d + 1]));
      expect(cliQuiet(["scan", table("mask"), "--project", "t_360_day"])).toContain(
        "t_360_day float64(t_360_day=7) [2000-01-01 00:00:00, 2000-02-29 00:00:00, 2000-02-30 00:00:00, 2000-02-30 12:00:00, …]",
      );
    });

    it("--sel by date counts in the coordinate's calendar, as xarray selects; a date the calendar lacks says so", () => {
      for (const mode of ["decode", "mask"]) {
        for (const spec of SELECTIONS) {
          const name = spec.slice(0, spec.indexOf("="));
          const [row] = scan(mode, "--project", name, "--sel", spec);
          expect(row!.arrays[name]!.values, `${mode} ${spec}`).toEqual(oracle.selections[spec]);
        }
      }
      const run = cli(["scan", table("mask"), "--sel", "t_noleap=2000-02-29"]);
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(/2000-02-29 is not a date of the noleap calendar/);
    });

    it("plot titles name the time as a date of its calendar", () => {
      const out = join(dir, "tas.png");
      const summary = JSON.parse(
        cliQuiet(["plot", table("decode"), "tas", "--isel", "t_360_day=2", "-o", out, "--json"]),
      ) as {
        title: string;
      };
      expect(summary.title).toBe("tas  t_360_day=2 (2000-02-30 00:00:00)");
    });
  },
);
