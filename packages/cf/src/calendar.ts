/**
 * The calendars of CF conventions section 4.4.1 as day arithmetic: how many
 * days a month has, and a date as a day number and back. Day numbers count
 * from 1970-01-01 of the calendar itself, so they are the same as the Unix
 * day for proleptic_gregorian (and for standard and julian dates, which are
 * real days). Years are numbered as cftime numbers them by default (CF 1.9,
 * section 4.4.1): historically in julian and standard, where year -1 is
 * followed by year 1 and there is no year 0; astronomically (year 0 exists)
 * in proleptic_gregorian and the idealized calendars.
 */

/** A CF calendar, by its canonical name (aliases resolve with {@link calendarOf}). */
export type CfCalendar = "standard" | "proleptic_gregorian" | "julian" | "noleap" | "all_leap" | "360_day";

/** The spellings of each calendar that CF allows (lower case). */
const ALIASES: Record<string, CfCalendar> = {
  standard: "standard",
  gregorian: "standard",
  proleptic_gregorian: "proleptic_gregorian",
  julian: "julian",
  noleap: "noleap",
  "365_day": "noleap",
  all_leap: "all_leap",
  "366_day": "all_leap",
  "360_day": "360_day",
};

/** The calendar names {@link calendarOf} accepts, for error messages. */
export const CALENDAR_NAMES: readonly string[] = Object.keys(ALIASES);

/** The canonical calendar of a `calendar` attribute (any case), or undefined when it names none. */
export function calendarOf(name: string): CfCalendar | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

/** A calendar date: year, month 1-12, day of month from 1. */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Days of a noleap / all_leap year before each month (and the year's length last). */
const NOLEAP_STARTS = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365] as const;
const ALL_LEAP_STARTS = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366] as const;

/** Day number of 1582-10-15, the first Gregorian day of the standard calendar. */
export const GREGORIAN_START_DAY = -141_427;

/** False for julian and standard, whose years are historical: year 1 follows year -1 (cftime's default). */
function hasYearZero(calendar: CfCalendar): boolean {
  return calendar !== "julian" && calendar !== "standard";
}

/** The astronomical year (year 0 exists, as in JavaScript's Date) of a year of `calendar`. */
export function astronomicalYear(calendar: CfCalendar, year: number): number {
  return year < 0 && !hasYearZero(calendar) ? year + 1 : year;
}

/** The year of `calendar` of an astronomical year. */
export function calendarYear(calendar: CfCalendar, year: number): number {
  return year <= 0 && !hasYearZero(calendar) ? year - 1 : year;
}

/** Days of `month` (1-12) of `year` in `calendar`; standard's October 1582 has 21 (5 to 14 are skipped). */
export function daysInMonth(calendar: CfCalendar, year: number, month: number): number {
  if (calendar === "360_day") return 30;
  if (month !== 2) return calendar === "standard" && year === 1582 && month === 10 ? 31 : MONTH_DAYS[month - 1]!;
  if (calendar === "noleap") return 28;
  if (calendar === "all_leap") return 29;
  const julianLeap = astronomicalYear(calendar, year) % 4 === 0;
  if (calendar === "julian" || (calendar === "standard" && year < 1583)) return julianLeap ? 29 : 28;
  return julianLeap && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/**
 * True when `date` exists in `calendar` (month 1-12, day within the month,
 * not 1582-10-05 to 14 in standard, no year 0 in julian and standard).
 */
export function isValidDate(calendar: CfCalendar, date: CalendarDate): boolean {
  const { year, month, day } = date;
  if (![year, month, day].every(Number.isInteger) || month < 1 || month > 12) return false;
  if (year === 0 && !hasYearZero(calendar)) return false;
  if (day < 1 || day > daysInMonth(calendar, year, month)) return false;
  return !(calendar === "standard" && year === 1582 && month === 10 && day > 4 && day < 15);
}

/**
 * The day number of a valid date of `calendar` (days from 1970-01-01 of that
 * calendar).
 *
 * @example
 * daysFromDate("noleap", { year: 1971, month: 1, day: 1 }); // 365
 * daysFromDate("360_day", { year: 2000, month: 2, day: 30 }); // 10889
 */
export function daysFromDate(calendar: CfCalendar, date: CalendarDate): number {
  const { month, day } = date;
  const year = astronomicalYear(calendar, date.year);
  switch (calendar) {
    case "360_day":
      return (year - 1970) * 360 + (month - 1) * 30 + day - 1;
    case "noleap":
    case "all_leap": {
      const starts = calendar === "noleap" ? NOLEAP_STARTS : ALL_LEAP_STARTS;
      return (year - 1970) * starts[12]! + starts[month - 1]! + day - 1;
    }
    case "julian":
      return julianDays(year, month, day);
    case "proleptic_gregorian":
      return gregorianDays(year, month, day);
    case "standard": {
      const later = year > 1582 || (year === 1582 && (month > 10 || (month === 10 && day >= 15)));
      return later ? gregorianDays(year, month, day) : julianDays(year, month, day);
    }
  }
}

/**
 * The date of a day number of `calendar` (the inverse of {@link daysFromDate}).
 *
 * @example
 * dateFromDays("360_day", 10889); // { year: 2000, month: 2, day: 30 }
 */
export function dateFromDays(calendar: CfCalendar, days: number): CalendarDate {
  switch (calendar) {
    case "360_day": {
      const years = Math.floor(days / 360);
      const inYear = days - years * 360;
      return { year: 1970 + years, month: Math.floor(inYear / 30) + 1, day: (inYear % 30) + 1 };
    }
    case "noleap":
    case "all_leap": {
      const starts = calendar === "noleap" ? NOLEAP_STARTS : ALL_LEAP_STARTS;
      const years = Math.floor(days / starts[12]!);
      const inYear = days - years * starts[12]!;
      let month = 1;
      while (inYear >= starts[month]!) month++;
      return { year: 1970 + years, month, day: inYear - starts[month - 1]! + 1 };
    }
    case "julian":
      return historical(julianDate(days));
    case "proleptic_gregorian":
      return gregorianDate(days);
    case "standard":
      return days >= GREGORIAN_START_DAY ? gregorianDate(days) : historical(julianDate(days));
  }
}

/** A date of an astronomical year as a date of the julian and standard calendars (no year 0). */
function historical(date: CalendarDate): CalendarDate {
  return { ...date, year: calendarYear("julian", date.year) };
}

// Howard Hinnant's days_from_civil / civil_from_days, for the proleptic
// Gregorian calendar and (with 4-year cycles only) the Julian one.

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar. */
function gregorianDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + dayOfMarchYear(month, day);
  return era * 146_097 + doe - 719_468;
}

function gregorianDate(days: number): CalendarDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  return marchYearDate(yoe + era * 400, doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)));
}

/** Days from 1970-01-01 (Gregorian; 1969-12-19 Julian) to a date of the Julian calendar. */
function julianDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const cycle = Math.floor(y / 4);
  const yoc = y - cycle * 4;
  return cycle * 1461 + yoc * 365 + dayOfMarchYear(month, day) - 719_470;
}

function julianDate(days: number): CalendarDate {
  const z = days + 719_470;
  const cycle = Math.floor(z / 1461);
  const doc = z - cycle * 1461;
  const yoc = Math.min(3, Math.floor(doc / 365));
  return marchYearDate(yoc + cycle * 4, doc - 365 * yoc);
}

/** Day of a year that starts on 1 March (0-365). */
function dayOfMarchYear(month: number, day: number): number {
  return Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
}

/** The date `doy` days after 1 March of `marchYear`. */
function marchYearDate(marchYear: number, doy: number): CalendarDate {
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: month <= 2 ? marchYear + 1 : marchYear, month, day };
}
