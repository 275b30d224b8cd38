/**
 * Times as the command line prints them (CLI README, "Times"): Arrow
 * timestamps and numbers with CF time `units` (`days since 2000-01-01`) as
 * dates of their calendar, by `@lance-nd/cf`: ISO 8601 in UTC
 * (`2001-03-15T00:00:00Z`) for Gregorian dates, cftime's text
 * (`2000-02-30 00:00:00`) for dates of other calendars.
 */
import { Precision, TimeUnit, Type, type Float, type Timestamp, type Vector } from "apache-arrow";
import { cfTimeToDateTime, formatCfDateTime, isCfTimeUnits, parseCfTimeUnits } from "@lance-nd/cf";
import type { CfTimeUnits } from "@lance-nd/cf";
import type { NdArray } from "@lance-nd/nd-arrow";

/** Formats one stored value of a time array (a timestamp's ticks, or a number in CF units). */
export type TimeFormat = (value: number | bigint) => string;

const TICK_UNITS: Record<TimeUnit, string> = {
  [TimeUnit.SECOND]: "seconds",
  [TimeUnit.MILLISECOND]: "milliseconds",
  [TimeUnit.MICROSECOND]: "microseconds",
  [TimeUnit.NANOSECOND]: "nanoseconds",
};

/** Years beyond this print as the stored number (a raw fill value such as 9.96921e36 is no date). */
const MAX_YEAR = 999_999;

/**
 * How the values of `array` print as dates: for a timestamp, or a number
 * array whose `units` are CF time units `@lance-nd/cf` reads (with its
 * `calendar`); undefined for anything else.
 */
export function timeFormat(array: NdArray): TimeFormat | undefined {
  const type = array.type;
  if (type.typeId === Type.Timestamp) {
    const timestamp = type as Timestamp;
    const units = parseCfTimeUnits(`${TICK_UNITS[timestamp.unit]} since 1970-01-01`, "proleptic_gregorian");
    const text = formatter(units);
    // A timestamp without a time zone is no instant in UTC: no `Z`.
    return timestamp.timezone ? text : (value) => text(value).replace(/Z$/, "");
  }
  // Half floats are no CF times (and their raw values are bits, not numbers).
  const half = type.typeId === Type.Float && (type as Float).precision === Precision.HALF;
  if ((type.typeId !== Type.Int && type.typeId !== Type.Float) || half) return undefined;
  const units = array.attr("units");
  if (!isCfTimeUnits(units)) return undefined;
  const calendar = array.attr("calendar");
  try {
    return formatter(parseCfTimeUnits(units, typeof calendar === "string" ? calendar : undefined));
  } catch {
    // Units or a calendar that do not read as CF times: the numbers print as numbers.
    return undefined;
  }
}

/** The texts of a slice of a time array's values (null for a null). */
export function timeTexts(values: Vector, format: TimeFormat): (string | null)[] {
  const raw = values.toArray() as ArrayLike<number | bigint>;
  const out = new Array<string | null>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values.isValid(i) ? format(raw[i]!) : null;
  return out;
}

function formatter(units: CfTimeUnits): TimeFormat {
  return (value) => {
    if (typeof value === "number" && !Number.isFinite(value)) return String(value);
    const dateTime = cfTimeToDateTime(value, units);
    return Math.abs(dateTime.year) > MAX_YEAR ? String(value) : formatCfDateTime(dateTime, units.calendar);
  };
}
