/**
 * CF time units (`<unit> since <date>`, CF conventions section 4.4) and the
 * conversion between numbers in those units and instants, for the calendars
 * that match JavaScript's and Arrow's: standard, gregorian,
 * proleptic_gregorian. Any other calendar is `UnsupportedCalendar`.
 */
import { CfError, isCfError } from "./cf-error.js";
import type { CfErrorContext } from "./cf-error.js";

/** The units a CF time may count in. */
export type CfTimeUnit = "days" | "hours" | "minutes" | "seconds" | "milliseconds" | "microseconds" | "nanoseconds";

/** The calendars this package decodes. */
export type CfCalendar = "standard" | "gregorian" | "proleptic_gregorian";

/** Parsed `units` and `calendar` of a CF time variable. */
export interface CfTimeUnits {
  /** The unit the numbers count. */
  readonly unit: CfTimeUnit;
  /** Nanoseconds in one unit. */
  readonly unitNs: bigint;
  /** The reference date (after `since`) in nanoseconds since 1970-01-01T00:00:00Z. */
  readonly epochNs: bigint;
  /** The calendar (lower case; `standard` when the variable has none). */
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

const CALENDARS = new Set<string>(["standard", "gregorian", "proleptic_gregorian"]);

/** The first day of the Gregorian calendar; `standard` is Julian before it. */
const GREGORIAN_START_NS = -141_427n * NS_PER.days;

/** True when `units` reads like a CF time unit (`<word> since <something>`). */
export function isCfTimeUnits(units: unknown): units is string {
  return typeof units === "string" && /^\s*\S+\s+since\s+\S/i.test(units);
}

/**
 * Parses CF time `units` and `calendar`. Throws `InvalidUnits` for text that
 * is not `<unit> since <date>` (months and years are not fixed lengths and are
 * refused too) and `UnsupportedCalendar` for a calendar other than standard,
 * gregorian or proleptic_gregorian, or a standard/gregorian reference date
 * before 1582-10-15 (where those calendars are Julian).
 *
 * @example
 * parseCfTimeUnits("days since 2000-01-01").epochNs; // 946684800000000000n
 */
export function parseCfTimeUnits(units: string, calendar?: string, where: CfErrorContext = {}): CfTimeUnits {
  const cal = (calendar ?? "standard").trim().toLowerCase();
  if (!CALENDARS.has(cal)) {
    throw new CfError(
      "UnsupportedCalendar",
      `calendar "${calendar}" is not supported (only standard, gregorian and proleptic_gregorian convert to dates)`,
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
  const epochNs = parseReferenceDate(match[2]!, units, where);
  if (cal !== "proleptic_gregorian" && epochNs < GREGORIAN_START_NS) {
    throw new CfError(
      "UnsupportedCalendar",
      `reference date of "${units}" is before 1582-10-15, where the ${cal} calendar is Julian; only proleptic_gregorian decodes there`,
      {
        ...where,
        attribute: "calendar",
      },
    );
  }
  return { unit, unitNs: NS_PER[unit], epochNs, calendar: cal as CfCalendar };
}

/**
 * The instant a number in CF time units stands for, to the millisecond.
 *
 * @example
 * cfTimeToDate(1.5, "days since 2000-01-01").toISOString(); // "2000-01-02T12:00:00.000Z"
 */
export function cfTimeToDate(value: number, units: string, calendar?: string): Date {
  const parsed = parseCfTimeUnits(units, calendar);
  const ms = Number(parsed.epochNs / 1_000_000n) + (value * Number(parsed.unitNs)) / 1e6;
  return new Date(Math.round(ms));
}

/**
 * A Date as a number in CF time units (what a region read compares a time
 * coordinate with).
 *
 * @example
 * dateToCfTime(new Date("2000-01-03T00:00:00Z"), "days since 2000-01-01"); // 2
 */
export function dateToCfTime(date: Date, units: string, calendar?: string): number {
  let parsed: CfTimeUnits;
  try {
    parsed = parseCfTimeUnits(units, calendar);
  } catch (err) {
    if (!isCfError(err, "UnsupportedCalendar")) throw err;
    throw new CfError(
      "UnsupportedCalendar",
      `${err.message}: a date cannot be placed on it; give the number in "${units}" instead`,
      {
        cause: err,
      },
    );
  }
  const ns = BigInt(date.getTime()) * 1_000_000n - parsed.epochNs;
  const whole = ns / parsed.unitNs;
  const rest = ns - whole * parsed.unitNs;
  return Number(whole) + Number(rest) / Number(parsed.unitNs);
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const DATE =
  /^(\d{1,4})-(\d{1,2})(?:-(\d{1,2}))?(?:(?:T|\s+)(\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9})\d*)?)?)?)?\s*(Z|UTC|GMT|[+-]\d{1,2}(?::?\d{2})?)?$/i;

function parseReferenceDate(text: string, units: string, where: CfErrorContext): bigint {
  const m = DATE.exec(text.trim());
  const fail = (why: string): never => {
    throw new CfError("InvalidUnits", `"${units}": ${why}`, { ...where, attribute: "units" });
  };
  if (m === null) return fail(`"${text}" is not a date like 2000-01-01 or 2000-01-01 12:00:00`);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? (i === 3 ? 1 : 0)));
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || second! > 60) {
    return fail(`"${text}" is not a valid date`);
  }
  const fraction = BigInt((m[7] ?? "").padEnd(9, "0"));
  const days = BigInt(daysFromCivil(year!, month!, day!));
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
