import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CALENDAR_NAMES, calendarOf, dateFromDays, daysFromDate, daysInMonth, isValidDate } from "../src/calendar.js";
import type { CfCalendar } from "../src/calendar.js";
import {
  cfDecode,
  cfTimeToDateTime,
  dateTimeToCfTime,
  dateToCfTime,
  formatCfTime,
  isCfError,
  parseCfTimeUnits,
} from "../src/index.js";
import type { CfDateTime } from "../src/index.js";
import { NdArray } from "@lance-nd/nd-arrow";
import { runPython, seededRandom } from "@lance-nd/test-helpers";
import { oracleSkipReason } from "./netcdf4-oracle.js";

const SCRIPT = fileURLToPath(new URL("../scripts/calendar-oracle.py", import.meta.url));

interface Case {
  units: string;
  calendar: string;
  values: number[];
}

/** netCDF4.num2date of each case: fields and cftime's text. */
function num2date(cases: Case[]): { fields: number[][]; text: string[] }[] {
  const out = runPython([SCRIPT], { input: JSON.stringify({ cases }) });
  return (JSON.parse(out) as { results: { fields: number[][]; text: string[] }[] }).results;
}

const UNITS = ["days", "hours", "minutes", "seconds"] as const;
const UNIT_DAYS = { days: 1, hours: 24, minutes: 1440, seconds: 86_400 };

/** Random cases in every calendar spelling: reference dates of years 1000-2500, values within 300 years, some fractional. */
function randomCases(seed: number, perCalendar: number): Case[] {
  const next = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const cases: Case[] = [];
  for (const name of CALENDAR_NAMES) {
    const calendar = calendarOf(name)!;
    for (let c = 0; c < perCalendar; c++) {
      let date: { year: number; month: number; day: number };
      do {
        const year = int(1000, 2500);
        const month = int(1, 12);
        date = { year, month, day: int(1, daysInMonth(calendar, year, month)) };
      } while (!isValidDate(calendar, date));
      const unit = UNITS[int(0, 3)]!;
      const pad = (n: number) => String(n).padStart(2, "0");
      const reference = `${date.year}-${pad(date.month)}-${pad(date.day)} ${pad(int(0, 23))}:${pad(int(0, 59))}:${pad(int(0, 59))}`;
      const span = 300 * 365 * UNIT_DAYS[unit];
      const values = Array.from({ length: 20 }, (_, i) =>
        i % 4 === 3 ? int(-span, span) + int(0, 7) / 8 : int(-span, span),
      );
      cases.push({ units: `${unit} since ${reference}`, calendar: name, values });
    }
  }
  return cases;
}

/** A date-time as cftime prints it. */
function cftimeText(d: CfDateTime): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const micro = Math.round(d.nanosecond / 1000);
  return `${d.year < 0 ? "-" : ""}${p(Math.abs(d.year), 4)}-${p(d.month)}-${p(d.day)} ${p(d.hour)}:${p(d.minute)}:${p(d.second)}${micro === 0 ? "" : `.${p(micro, 6)}`}`;
}

describe.skipIf(oracleSkipReason() !== undefined)("calendar arithmetic against netCDF4.num2date", () => {
  it("every calendar: seeded random reference dates, units and values give num2date's dates", () => {
    const cases = randomCases(20_260_301, 12);
    const results = num2date(cases);
    for (const [i, c] of cases.entries()) {
      const units = parseCfTimeUnits(c.units, c.calendar);
      for (const [j, value] of c.values.entries()) {
        const where = `${value} ${c.units} (${c.calendar})`;
        expect(cftimeText(cfTimeToDateTime(value, units)), where).toBe(results[i]!.text[j]);
        if (Number.isInteger(value)) expect(dateTimeToCfTime(cfTimeToDateTime(value, units), units), where).toBe(value);
      }
    }
  });

  it("reference dates before year 1 and across the Gregorian gap: every calendar gives num2date's dates (no year 0 in julian and standard)", () => {
    const references = [
      "-4713-01-01",
      "-4713-01-01 12:00:00",
      "-0001-12-30",
      "-0001-03-01",
      "-0100-02-28",
      "0001-01-01",
      "1582-10-04",
      "1582-10-15",
    ];
    const values = [0, 1, 59, 60, 365, 366, 730, 1461, -1, -366, -1461, 2_451_545, 1_721_424, 1_721_425, -400_000];
    const cases: Case[] = CALENDAR_NAMES.flatMap((calendar) =>
      references.map((reference) => ({ units: `days since ${reference}`, calendar, values })),
    );
    const results = num2date(cases);
    let compared = 0;
    for (const [i, c] of cases.entries()) {
      const units = parseCfTimeUnits(c.units, c.calendar);
      for (const [j, value] of c.values.entries()) {
        const where = `${value} ${c.units} (${c.calendar})`;
        expect(cftimeText(cfTimeToDateTime(value, units)), where).toBe(results[i]!.text[j]);
        expect(dateTimeToCfTime(cfTimeToDateTime(value, units), units), where).toBe(value);
        compared++;
      }
    }
    expect(compared).toBe(CALENDAR_NAMES.length * references.length * values.length);
    expect(formatCfTime(2_451_545, "days since -4713-01-01", "julian")).toBe("1999-12-19 00:00:00");
  });

  it("year 0 is not a date of julian and standard, and is one of proleptic_gregorian and noleap", () => {
    expect(() => parseCfTimeUnits("days since 0000-01-01", "julian")).toThrow(/not a date of the julian calendar/);
    expect(() => parseCfTimeUnits("days since 0000-06-01", "standard")).toThrow(/not a date of the standard calendar/);
    expect(formatCfTime(0, "days since 0000-01-01", "noleap")).toBe("0000-01-01 00:00:00");
    expect(formatCfTime(0, "days since 0000-01-01", "proleptic_gregorian")).toBe("0000-01-01T00:00:00Z");
  });

  it("non-Gregorian dates print as cftime prints them; Gregorian ones as ISO 8601 with Z", () => {
    const cases: Case[] = [
      { units: "days since 2000-01-01", calendar: "360_day", values: [59, 359.5] },
      { units: "days since 2000-01-01", calendar: "noleap", values: [59, 365] },
      { units: "days since 2000-01-01", calendar: "all_leap", values: [59, 366] },
      { units: "days since 2000-01-01", calendar: "julian", values: [59, 0.25] },
      { units: "days since 1000-01-01", calendar: "standard", values: [0, 59] },
    ];
    const results = num2date(cases);
    for (const [i, c] of cases.entries()) {
      expect(c.values.map((v) => formatCfTime(v, c.units, c.calendar))).toEqual(results[i]!.text);
    }
    expect(formatCfTime(73, "days since 2001-01-01", "gregorian")).toBe("2001-03-15T00:00:00Z");
    expect(formatCfTime(1.5, "days since 2001-01-01", "proleptic_gregorian")).toBe("2001-01-02T12:00:00Z");
    expect(formatCfTime(0.25, "seconds since 2001-01-01")).toBe("2001-01-01T00:00:00.25Z");
  });
});

describe("day numbers", () => {
  const calendars = [...new Set(CALENDAR_NAMES.map((n) => calendarOf(n)!))] as CfCalendar[];

  it("every calendar: day -> date -> day holds for seeded random days within 3000 years, and consecutive days are consecutive dates", () => {
    const next = seededRandom(7);
    for (const calendar of calendars) {
      for (let i = 0; i < 5_000; i++) {
        const day = Math.floor((next() - 0.5) * 2 * 1_100_000);
        const date = dateFromDays(calendar, day);
        expect(isValidDate(calendar, date), `${calendar} ${day}`).toBe(true);
        expect(daysFromDate(calendar, date), `${calendar} ${day}`).toBe(day);
        const after = dateFromDays(calendar, day + 1);
        const sameMonth = after.year === date.year && after.month === date.month && after.day === date.day + 1;
        const nextMonth =
          after.day === 1 && (after.month === date.month + 1 || (after.month === 1 && after.year === date.year + 1));
        const gap =
          calendar === "standard" && date.year === 1582 && date.month === 10 && date.day === 4 && after.day === 15;
        expect(sameMonth || nextMonth || gap, `${calendar} ${day}`).toBe(true);
      }
    }
  });

  it("standard is Julian to 1582-10-04 and Gregorian from the next day, 1582-10-15", () => {
    const last = daysFromDate("standard", { year: 1582, month: 10, day: 4 });
    expect(dateFromDays("standard", last + 1)).toEqual({ year: 1582, month: 10, day: 15 });
    expect(isValidDate("standard", { year: 1582, month: 10, day: 10 })).toBe(false);
    expect(daysFromDate("julian", { year: 1969, month: 12, day: 19 })).toBe(0);
  });
});

describe("calendars in cfDecode and dates", () => {
  const time = (calendar: string) =>
    NdArray.from(new Int32Array([0, 59]), { dims: { time: 2 }, attrs: { units: "days since 2000-01-01", calendar } });

  it("noleap, 360_day, julian and standard before 1582 keep their numbers, units and calendar", () => {
    for (const calendar of ["noleap", "365_day", "all_leap", "366_day", "360_day", "julian"]) {
      const decoded = cfDecode(time(calendar), { name: "time" });
      expect(Array.from(decoded.values)).toEqual([0, 59]);
      expect(decoded.attr("calendar")).toBe(calendar);
    }
    const old = NdArray.from(new Int32Array([0]), { dims: { time: 1 }, attrs: { units: "days since 1000-01-01" } });
    expect(Array.from(cfDecode(old).values)).toEqual([0]);
  });

  it("a Date counts in the calendar; a date the calendar lacks is InvalidDate naming it", () => {
    expect(dateToCfTime(new Date("2001-01-01T00:00:00Z"), "days since 2000-01-01", "360_day")).toBe(360);
    expect(dateToCfTime(new Date("2001-01-01T00:00:00Z"), "days since 2000-01-01", "noleap")).toBe(365);
    let err: unknown;
    try {
      dateToCfTime(new Date("2000-02-29T00:00:00Z"), "days since 2000-01-01", "noleap");
    } catch (e) {
      err = e;
    }
    expect(isCfError(err, "InvalidDate")).toBe(true);
    expect((err as Error).message).toMatch(/2000-02-29 is not a date of the noleap calendar/);
  });

  it("an unknown calendar is UnsupportedCalendar listing CF's", () => {
    expect(() => parseCfTimeUnits("days since 2000-01-01", "lunar")).toThrow(/not a CF calendar \(standard, gregorian/);
  });
});
