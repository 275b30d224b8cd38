/**
 * CF time units (`<unit> since <date>`, CF conventions section 4.4) in any
 * CF calendar (`calendar.ts`), and whether times in them decode to Arrow
 * timestamps.
 */
import { CALENDAR_NAMES, calendarOf, daysFromDate, GREGORIAN_START_DAY, isValidDate } from "./calendar.js";
import type { CfCalendar } from "./calendar.js";
import { CfError } from "./cf-error.js";
import type { CfErrorContext } from "./cf-error.js";

/** The units a CF time may count in. */
export type CfTimeUnit = "days" | "hours" | "minutes" | "seconds" | "milliseconds" | "microseconds" | "nanoseconds";

/** Parsed `units` and `calendar` of a CF time variable. */
export interface CfTimeUnits {
  /** The unit the numbers count. */
  readonly unit: CfTimeUnit;
  /** Nanoseconds in one unit. */
  readonly unitNs: bigint;
  /**
   * The reference date (after `since`) in nanoseconds since 1970-01-01T00:00
   * of the calendar (for standard, julian and proleptic_gregorian: since the
   * Unix epoch).
   */
  readonly epochNs: bigint;
  /** The calendar, by its canonical name (`gregorian` is `standard`; `standard` when the variable has none). */
  readonly calendar: CfCalendar;
}

const NS_PER: Record<CfTimeUnit, bigint> = {
  days: 86_400_000_000_000n,
  hours: 3_600_000_000_000n,
  minutes: 60_000_000_000n,
  seconds: 1_000_000_000n,
  milliseconds: 1_000_000n,
  microseconds: 1_000n,
  nanoseconds: 1n,
};

// The spellings cftime accepts.
const UNIT_NAMES: Record<string, CfTimeUnit> = {};
for (const [unit, names] of Object.entries({
  days: ["days", "day", "d"],
  hours: ["hours", "hour", "hrs", "hr", "h"],
  minutes: ["minutes", "minute", "mins", "min"],
  seconds: ["seconds", "second", "secs", "sec", "s"],
  milliseconds: ["milliseconds", "millisecond", "millisecs", "millisec", "msecs", "msec", "ms"],
  microseconds: ["microseconds", "microsecond", "microsecs", "microsec", "usecs", "usec", "us"],
  nanoseconds: ["nanoseconds", "nanosecond", "nanosecs", "nanosec", "nsecs", "nsec", "ns"],
} satisfies Record<CfTimeUnit, string[]>)) {
  for (const name of names) UNIT_NAMES[name] = unit as CfTimeUnit;
}

/** The first day of the Gregorian calendar; `standard` is Julian before it. */
const GREGORIAN_START_NS = BigInt(GREGORIAN_START_DAY) * NS_PER.days;

/** True when `units` reads like a CF time unit (`<word> since <something>`). */
export function isCfTimeUnits(units: unknown): units is string {
  return typeof units === "string" && /^\s*\S+\s+since\s+\S/i.test(units);
}

/**
 * True when two `units` / `calendar` pairs encode times the same way, as CF
 * reads them: `days since 2000-01-01` and `days since 2000-1-1 00:00:00`,
 * calendars `standard` and `gregorian` (the same unit, reference instant
 * and canonical calendar). False when either does not parse.
 *
 * @example
 * sameCfTimeEncoding("days since 2000-1-1 00:00:00", "gregorian", "days since 2000-01-01", undefined); // true
 */
export function sameCfTimeEncoding(unitsA: unknown, calendarA: unknown, unitsB: unknown, calendarB: unknown): boolean {
  if (!isCfTimeUnits(unitsA) || !isCfTimeUnits(unitsB)) return false;
  const calendar = (c: unknown) => (typeof c === "string" ? c : undefined);
  try {
    const a = parseCfTimeUnits(unitsA, calendar(calendarA));
    const b = parseCfTimeUnits(unitsB, calendar(calendarB));
    return a.unitNs === b.unitNs && a.epochNs === b.epochNs && a.calendar === b.calendar;
  } catch {
    return false;
  }
}

/**
 * Parses CF time `units` and `calendar`. Throws `InvalidUnits` for text that
 * is not `<unit> since <date>` (months and years are not fixed lengths and are
 * refused too) or a reference date its calendar lacks, and
 * `UnsupportedCalendar` for a calendar that is not one of CF's (standard,
 * gregorian, proleptic_gregorian, julian, noleap, 365_day, all_leap,
 * 366_day, 360_day).
 *
 * @example
 * parseCfTimeUnits("days since 2000-01-01").epochNs; // 946684800000000000n
 */
export function parseCfTimeUnits(units: string, calendar?: string, where: CfErrorContext = {}): CfTimeUnits {
  const cal = calendarOf(calendar ?? "standard");
  if (cal === undefined) {
    throw new CfError(
      "UnsupportedCalendar",
      `calendar "${calendar}" is not a CF calendar (${CALENDAR_NAMES.join(", ")})`,
      { ...where, attribute: "calendar" },
    );
  }
  const match = /^\s*(\S+)\s+since\s+(.+?)\s*$/i.exec(units);
  const unit = match === null ? undefined : UNIT_NAMES[match[1]!.toLowerCase()];
  if (match === null || unit === undefined) {
    const why =
      match !== null && /^(months?|years?|common_years?)$/i.test(match[1]!)
        ? " (months and years have no fixed length)"
        : "";
    throw new CfError(
      "InvalidUnits",
      `"${units}" is not a CF time unit "<days|hours|minutes|seconds|...> since <date>"${why}`,
      {
        ...where,
        attribute: "units",
      },
    );
  }
  const epochNs = parseReferenceDate(match[2]!, units, cal, where);
  return { unit, unitNs: NS_PER[unit], epochNs, calendar: cal };
}

/**
 * True when times in `units` decode to Arrow timestamps: their calendar's
 * dates are the proleptic Gregorian dates of JavaScript and Arrow
 * (proleptic_gregorian; standard from its reference date 1582-10-15 on).
 * Other times keep their numbers (README, "What is decoded").
 */
export function decodesToTimestamps(units: CfTimeUnits): boolean {
  return (
    units.calendar === "proleptic_gregorian" || (units.calendar === "standard" && units.epochNs >= GREGORIAN_START_NS)
  );
}

/** Nanoseconds in a day. */
export const NS_PER_DAY = NS_PER.days;

const DATE =
  /^(-?\d{1,4})-(\d{1,2})(?:-(\d{1,2}))?(?:(?:T|\s+)(\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9})\d*)?)?)?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?$/i;

function parseReferenceDate(text: string, units: string, calendar: CfCalendar, where: CfErrorContext): bigint {
  const m = DATE.exec(text.trim());
  const fail = (why: string): never => {
    throw new CfError("InvalidUnits", `"${units}": ${why}`, { ...where, attribute: "units" });
  };
  if (m === null) return fail(`"${text}" is not a date like 2000-01-01 or 2000-01-01 12:00:00`);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? (i === 3 ? 1 : 0)));
  if (hour! > 23 || minute! > 59 || second! > 60) return fail(`"${text}" is not a valid time of day`);
  const date = { year: year!, month: month!, day: day! };
  if (!isValidDate(calendar, date)) return fail(`"${text}" is not a date of the ${calendar} calendar`);
  const fraction = BigInt((m[7] ?? "").padEnd(9, "0"));
  const days = BigInt(daysFromDate(calendar, date));
  const seconds = BigInt(hour! * 3600 + minute! * 60 + second!);
  let ns = days * NS_PER.days + seconds * NS_PER.seconds + fraction;
  const zone = m[8];
  if (zone !== undefined && /^[+-]/.test(zone)) {
    const z = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone)!;
    const offset = BigInt(Number(z[2]) * 3600 + Number(z[3] ?? 0) * 60) * NS_PER.seconds;
    ns += z[1] === "+" ? -offset : offset;
  }
  return ns;
}
