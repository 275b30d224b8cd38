/**
 * CF times as date-times of their own calendar, as cftime's `num2date` and
 * `date2num` see them, and as text: ISO 8601 with `Z` for proleptic
 * Gregorian dates, cftime's `2000-02-30 00:00:00` for the others.
 */
import {
  astronomicalYear,
  calendarYear,
  dateFromDays,
  daysFromDate,
  GREGORIAN_START_DAY,
  isValidDate,
} from "./calendar.js";
import type { CalendarDate, CfCalendar } from "./calendar.js";
import { CfError } from "./cf-error.js";
import type { CfErrorContext } from "./cf-error.js";
import { NS_PER_DAY, parseCfTimeUnits } from "./time-units.js";
import type { CfTimeUnits } from "./time-units.js";

/** A date and time of day in some calendar (no time zone: CF times are UTC). */
export interface CfDateTime extends CalendarDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Nanoseconds within the second (0 to 999 999 999). */
  readonly nanosecond: number;
}

/**
 * The date-time of a number in CF time `units`. Integer values are exact;
 * fractional values round to the microsecond, as cftime rounds them. A NaN
 * or infinite value is `OutOfRange`.
 *
 * @example
 * cfTimeToDateTime(59, parseCfTimeUnits("days since 2000-01-01", "360_day")); // 2000-02-30 00:00
 */
export function cfTimeToDateTime(value: number | bigint, units: CfTimeUnits, where: CfErrorContext = {}): CfDateTime {
  const seconds = wholeSeconds(units);
  if (seconds !== undefined && typeof value === "number" && Number.isSafeInteger(value)) {
    // Whole seconds in a float are exact up to 2^53 s (285 million years): no BigInt needed.
    const total = seconds.epoch + value * seconds.unit;
    if (Number.isSafeInteger(total)) return fromSeconds(units.calendar, total, 0);
  }
  let offset: bigint;
  if (typeof value === "bigint") offset = value * units.unitNs;
  else if (Number.isSafeInteger(value)) offset = BigInt(value) * units.unitNs;
  else if (Number.isFinite(value)) {
    // The whole units exactly, the fraction (exact in a float) to the microsecond.
    const whole = Math.trunc(value);
    offset = BigInt(whole) * units.unitNs + BigInt(Math.round(((value - whole) * Number(units.unitNs)) / 1000)) * 1000n;
  } else throw new CfError("OutOfRange", `time ${value} is not a date`, { ...where, attribute: "units" });
  const ns = units.epochNs + offset;
  let days = ns / NS_PER_DAY;
  let rest = ns - days * NS_PER_DAY;
  if (rest < 0n) {
    days -= 1n;
    rest += NS_PER_DAY;
  }
  return fromSeconds(
    units.calendar,
    Number(days) * 86_400 + Number(rest / 1_000_000_000n),
    Number(rest % 1_000_000_000n),
  );
}

/** The reference date and unit in whole seconds, when both are (cached per parsed units). */
const SECONDS = new WeakMap<CfTimeUnits, { epoch: number; unit: number } | undefined>();

function wholeSeconds(units: CfTimeUnits): { epoch: number; unit: number } | undefined {
  if (SECONDS.has(units)) return SECONDS.get(units);
  const whole = units.epochNs % 1_000_000_000n === 0n && units.unitNs % 1_000_000_000n === 0n;
  const seconds = whole
    ? { epoch: Number(units.epochNs / 1_000_000_000n), unit: Number(units.unitNs / 1_000_000_000n) }
    : undefined;
  SECONDS.set(units, seconds);
  return seconds;
}

/** The date-time `seconds` (a safe integer) after 1970-01-01 of `calendar`, plus `nanosecond`. */
function fromSeconds(calendar: CfCalendar, seconds: number, nanosecond: number): CfDateTime {
  const days = Math.floor(seconds / 86_400);
  const secondOfDay = seconds - days * 86_400;
  const { year, month, day } = dateFromDays(calendar, days);
  return {
    year,
    month,
    day,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    second: secondOfDay % 60,
    nanosecond,
  };
}

/**
 * A date-time of the calendar of `units` as a number in those units.
 * `InvalidDate` when the calendar lacks the date (29 February in noleap, 31
 * March in 360_day, 1582-10-10 in standard).
 *
 * @example
 * dateTimeToCfTime({ year: 2000, month: 2, day: 30, hour: 0, minute: 0, second: 0, nanosecond: 0 },
 *   parseCfTimeUnits("days since 2000-01-01", "360_day")); // 59
 */
export function dateTimeToCfTime(dateTime: CfDateTime, units: CfTimeUnits, where: CfErrorContext = {}): number {
  if (!isValidDate(units.calendar, dateTime)) {
    throw new CfError("InvalidDate", `${formatDate(dateTime)} is not a date of the ${units.calendar} calendar`, {
      ...where,
      attribute: "calendar",
    });
  }
  const seconds = BigInt(dateTime.hour * 3600 + dateTime.minute * 60 + dateTime.second);
  const ns =
    BigInt(daysFromDate(units.calendar, dateTime)) * NS_PER_DAY +
    seconds * 1_000_000_000n +
    BigInt(dateTime.nanosecond) -
    units.epochNs;
  const whole = ns / units.unitNs;
  return Number(whole) + Number(ns - whole * units.unitNs) / Number(units.unitNs);
}

/**
 * A date-time as text: ISO 8601 in UTC (`2001-03-15T00:00:00Z`, a fraction
 * only when there is one) when it is a proleptic Gregorian date
 * (proleptic_gregorian; standard from 1582-10-15), else as cftime prints it
 * (`2000-02-30 00:00:00`, microseconds when there are some).
 */
export function formatCfDateTime(dateTime: CfDateTime, calendar: CfCalendar): string {
  const time = [dateTime.hour, dateTime.minute, dateTime.second].map((n) => String(n).padStart(2, "0")).join(":");
  const nine = String(dateTime.nanosecond).padStart(9, "0");
  const gregorian =
    calendar === "proleptic_gregorian" ||
    (calendar === "standard" && daysFromDate(calendar, dateTime) >= GREGORIAN_START_DAY);
  if (gregorian) {
    const fraction = dateTime.nanosecond === 0 ? "" : `.${nine.replace(/0+$/, "")}`;
    return `${formatDate(dateTime)}T${time}${fraction}Z`;
  }
  const fraction = dateTime.nanosecond === 0 ? "" : `.${dateTime.nanosecond % 1000 === 0 ? nine.slice(0, 6) : nine}`;
  return `${formatDate(dateTime)} ${time}${fraction}`;
}

/**
 * A number in CF time `units` and `calendar` as text ({@link formatCfDateTime}).
 *
 * @example
 * formatCfTime(59, "days since 2000-01-01", "360_day"); // "2000-02-30 00:00:00"
 * formatCfTime(74, "days since 2001-01-01");            // "2001-03-16T00:00:00Z"
 */
export function formatCfTime(value: number | bigint, units: string, calendar?: string): string {
  const parsed = parseCfTimeUnits(units, calendar);
  return formatCfDateTime(cfTimeToDateTime(value, parsed), parsed.calendar);
}

/**
 * A number in CF time units as the JavaScript Date with the same UTC
 * date and time, to the millisecond. `InvalidDate` for a date the Gregorian
 * calendar lacks (`2000-02-30` of 360_day); use {@link formatCfTime} or
 * {@link cfTimeToDateTime} for those.
 *
 * @example
 * cfTimeToDate(1.5, "days since 2000-01-01").toISOString(); // "2000-01-02T12:00:00.000Z"
 */
export function cfTimeToDate(value: number, units: string, calendar?: string): Date {
  const parsed = parseCfTimeUnits(units, calendar);
  const dt = cfTimeToDateTime(value, parsed);
  const date = new Date(0);
  date.setUTCFullYear(astronomicalYear(parsed.calendar, dt.year), dt.month - 1, dt.day);
  date.setUTCHours(dt.hour, dt.minute, dt.second, Math.round(dt.nanosecond / 1e6));
  if (date.getUTCMonth() !== dt.month - 1 || date.getUTCDate() !== dt.day) {
    throw new CfError("InvalidDate", `${formatCfDateTime(dt, parsed.calendar)} is not a Gregorian date`, {
      attribute: "calendar",
    });
  }
  return date;
}

/**
 * A Date as a number in CF time units (what a region read compares a time
 * coordinate with): the Date's UTC date and time taken as a date-time of the
 * calendar, as xarray reads a date on a cftime index. `InvalidDate` when the
 * calendar lacks that date (29 February in noleap).
 *
 * @example
 * dateToCfTime(new Date("2000-01-03T00:00:00Z"), "days since 2000-01-01"); // 2
 * dateToCfTime(new Date("2001-01-01T00:00:00Z"), "days since 2000-01-01", "360_day"); // 360
 */
export function dateToCfTime(date: Date, units: string, calendar?: string): number {
  const parsed = parseCfTimeUnits(units, calendar);
  return dateTimeToCfTime(
    {
      year: calendarYear(parsed.calendar, date.getUTCFullYear()),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      nanosecond: date.getUTCMilliseconds() * 1_000_000,
    },
    parsed,
  );
}

/** `2000-02-30`: a date with a four-digit year. */
function formatDate(date: CalendarDate): string {
  const year = `${date.year < 0 ? "-" : ""}${String(Math.abs(date.year)).padStart(4, "0")}`;
  return `${year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}
