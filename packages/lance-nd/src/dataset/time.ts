/**
 * Coordinate values from `sel` values: numbers and bigints as they are,
 * Dates in the coordinate's own units (a timestamp's or date's unit, or the
 * CF time `units` attribute of a numeric coordinate, "days since 2000-01-01"),
 * and date texts as periods of the coordinate's calendar (pandas' partial
 * string indexing: `"2001-03"` is March, in noleap as in 360_day).
 */
import { DataType, DateUnit, TimeUnit, type Date_, type Int, type Timestamp } from "apache-arrow";
import {
  cfTimeToDateTime,
  dateTimeToCfTime,
  dateToCfTime,
  formatCfTime,
  isCfError,
  isCfTimeUnits,
  parseCfTimeUnits,
  type CfDateTime,
  type CfTimeUnits,
} from "@lance-nd/cf";
import type { Attrs } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";
import type { CoordinateNumber, SelValue } from "./selection.js";

const MS_PER_DAY = 86_400_000;

/**
 * `value` as a number in the units of a coordinate of `type` with `attrs`:
 * a bigint stays a bigint on a 64-bit integer coordinate (compared exactly),
 * else it becomes a number.
 *
 * CF time units are converted by `@lance-nd/cf` (the one implementation of
 * the netCDF import and export too).
 *
 * @throws LanceNdError `InvalidInput` naming the coordinate for a Date on a
 * coordinate that is neither a timestamp, a date, nor numeric with CF time
 * units, or units / a calendar the CF package cannot convert.
 */
export function coordinateNumber(
  uri: string,
  coord: string,
  value: SelValue,
  type: DataType,
  attrs: Attrs | undefined,
): CoordinateNumber {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return isInt64(type) ? value : Number(value);
  if (typeof value === "string") return numberText(uri, coord, value, type);
  const ms = value.getTime();
  if (Number.isNaN(ms)) throw new LanceNdError("InvalidInput", `sel: an invalid Date for "${coord}"`, { uri });
  if (DataType.isTimestamp(type)) return fromMs(ms, (type as Timestamp).unit);
  if (DataType.isDate(type)) return (type as Date_).unit === DateUnit.DAY ? ms / MS_PER_DAY : ms;
  const units = attrs?.get("units")?.toJS();
  if ((DataType.isInt(type) || DataType.isFloat(type)) && isCfTimeUnits(units)) {
    const calendar = attrs?.get("calendar")?.toJS();
    try {
      return dateToCfTime(value, units, typeof calendar === "string" ? calendar : undefined);
    } catch (err) {
      throw new LanceNdError(
        "InvalidInput",
        `sel: cannot convert a Date to "${coord}"'s units "${units}": ${String((err as Error).message)}`,
        { uri, cause: err },
      );
    }
  }
  throw new LanceNdError(
    "InvalidInput",
    `sel: a Date on "${coord}" (${type}${typeof units === "string" ? `, units "${units}"` : ""}) ` +
      'needs a timestamp or date coordinate, or CF time units ("days since 2000-01-01")',
    { uri },
  );
}

/**
 * A coordinate value as a message shows it: a timestamp or date as ISO 8601
 * (whole seconds without a fraction), a number with CF time units as a date
 * of its calendar (`@lance-nd/cf`'s `formatCfTime`), anything else as the
 * number.
 */
export function coordinateText(value: CoordinateNumber, type: DataType, attrs: Attrs | undefined): string {
  if (typeof value === "bigint") return String(value);
  if (DataType.isTimestamp(type) || DataType.isDate(type)) {
    const ms = DataType.isDate(type)
      ? (type as Date_).unit === DateUnit.DAY
        ? value * MS_PER_DAY
        : value
      : toMs(value, (type as Timestamp).unit);
    const iso = new Date(ms).toISOString();
    return DataType.isDate(type) && (type as Date_).unit === DateUnit.DAY
      ? iso.slice(0, 10)
      : iso.replace(".000Z", "Z");
  }
  const units = attrs?.get("units")?.toJS();
  if (!isCfTimeUnits(units)) return String(value);
  const calendar = attrs?.get("calendar")?.toJS();
  try {
    return formatCfTime(value, units, typeof calendar === "string" ? calendar : undefined);
  } catch {
    return String(value);
  }
}

/** A number written as text: a bigint when it is an integer on a 64-bit integer coordinate (exact past 2^53). */
function numberText(uri: string, coord: string, text: string, type: DataType): CoordinateNumber {
  const trimmed = text.trim();
  if (isInt64(type) && /^[-+]?\d+$/.test(trimmed)) return BigInt(trimmed);
  const number = trimmed === "" ? NaN : Number(trimmed);
  if (Number.isFinite(number)) return number;
  throw new LanceNdError(
    "InvalidInput",
    `sel: "${coord}" is ${type}, not a time, so ${JSON.stringify(text)} is not one of its values; give a number`,
    { uri },
  );
}

/** True when `type` with `attrs` is a time coordinate: a timestamp, a date, or numbers with CF time units. */
export function isTimeCoordinate(type: DataType, attrs: Attrs | undefined): boolean {
  if (DataType.isTimestamp(type) || DataType.isDate(type)) return true;
  return (DataType.isInt(type) || DataType.isFloat(type)) && isCfTimeUnits(attrs?.get("units")?.toJS());
}

/**
 * How fine a date text or a time coordinate is, coarse to fine, as pandas'
 * `Resolution`: a text names a year, month, day, hour, minute or second (a
 * fraction is finer than any); a coordinate is as fine as its finest value
 * (all at midnight: day).
 */
export type Resolution = 0 | 1 | 2 | 3 | 4 | 5 | 6;
const [YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, FRACTION] = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * A date text as a period of the coordinate: `[start, end)` in its units,
 * and how fine the text is. A whole second (or a fraction) is a period of
 * zero length: `start === end`.
 */
export interface DatePeriod {
  start: number;
  end: number;
  resolution: Resolution;
}

const DATE_TEXT =
  /^(-?\d{4,})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A date text (ISO 8601, `2001`, `2001-03`, `2001-03-01T12:30:00.5Z`; UTC
 * unless a zone is given) as a period of a time coordinate of `type` with
 * `attrs`, in that coordinate's calendar (a timestamp or date: proleptic
 * Gregorian).
 *
 * @throws LanceNdError `InvalidInput` naming the coordinate for text that
 * is not a date, or a date its calendar lacks ("1900-02-29 is not a date
 * of the noleap calendar").
 */
export function datePeriod(
  uri: string,
  coord: string,
  text: string,
  type: DataType,
  attrs: Attrs | undefined,
): DatePeriod {
  const match = DATE_TEXT.exec(text.trim());
  if (match === null)
    throw new LanceNdError(
      "InvalidInput",
      `sel: ${JSON.stringify(text)} on time coordinate "${coord}" is not an ISO date (2001, 2001-03, 2001-03-01T12:00Z)`,
      { uri },
    );
  const [year, month, day, hour, minute, second] = match
    .slice(1, 7)
    .map((f) => (f === undefined ? undefined : Number(f)));
  const fraction = match[7] ?? "";
  // The first field left out names the resolution: no month is a year, no day a month, ...
  const missing = [month, day, hour, minute, second].indexOf(undefined);
  const resolution = missing >= 0 ? (missing as Resolution) : fraction === "" ? SECOND : FRACTION;
  const at: CfDateTime = {
    year: year!,
    month: month ?? 1,
    day: day ?? 1,
    hour: hour ?? 0,
    minute: minute ?? 0,
    second: second ?? 0,
    nanosecond: fraction === "" ? 0 : Number(fraction.slice(1).padEnd(9, "0")),
  };
  const zone = zoneMinutes(match[8]);
  const units = timeUnitsOf(uri, coord, type, attrs);
  const toNumber = (dt: CfDateTime) => {
    try {
      return dateTimeToCfTime(dt, units) - (zone * 60e9) / Number(units.unitNs);
    } catch (err) {
      if (!isCfError(err)) throw err;
      throw new LanceNdError("InvalidInput", `sel: "${coord}": ${err.detail}`, { uri, cause: err });
    }
  };
  const start = toNumber(at);
  if (resolution === YEAR) return { start, end: toNumber({ ...at, year: at.year + 1 }), resolution };
  if (resolution === MONTH) {
    const next = at.month === 12 ? { ...at, year: at.year + 1, month: 1 } : { ...at, month: at.month + 1 };
    return { start, end: toNumber(next), resolution };
  }
  const lengthNs = [0, 0, 86_400e9, 3_600e9, 60e9, 0, 0][resolution]!;
  return { start, end: start + lengthNs / Number(units.unitNs), resolution };
}

/** A zone suffix (`Z`, `+05:30`, `-0800`) as minutes east of UTC. */
function zoneMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === "Z") return 0;
  const digits = zone.replace(":", "");
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
  return zone.startsWith("-") ? -minutes : minutes;
}

/**
 * The CF units and calendar that a time coordinate's numbers count in: its
 * own `units` and `calendar`, or for a timestamp or date the unit since
 * 1970-01-01 of the proleptic Gregorian calendar.
 */
function timeUnitsOf(uri: string, coord: string, type: DataType, attrs: Attrs | undefined): CfTimeUnits {
  const unit = DataType.isTimestamp(type)
    ? ["seconds", "milliseconds", "microseconds", "nanoseconds"][(type as Timestamp).unit]
    : DataType.isDate(type)
      ? (type as Date_).unit === DateUnit.DAY
        ? "days"
        : "milliseconds"
      : undefined;
  if (unit !== undefined) return parseCfTimeUnits(`${unit} since 1970-01-01`, "proleptic_gregorian");
  const units = attrs?.get("units")?.toJS();
  const calendar = attrs?.get("calendar")?.toJS();
  try {
    return parseCfTimeUnits(String(units), typeof calendar === "string" ? calendar : undefined);
  } catch (err) {
    throw new LanceNdError(
      "InvalidInput",
      `sel: "${coord}" has units "${String(units)}": ${String((err as Error).message)}`,
      {
        uri,
        cause: err,
      },
    );
  }
}

/**
 * How fine the values of a time coordinate are ({@link Resolution}): the
 * finest of its values' times of day (NaN left out), as pandas'
 * `DatetimeIndex.resolution`. Decides whether a date text is a period
 * (coarser than the values) or one instant.
 */
export function valuesResolution(
  uri: string,
  coord: string,
  values: readonly CoordinateNumber[],
  type: DataType,
  attrs: Attrs | undefined,
): Resolution {
  const units = timeUnitsOf(uri, coord, type, attrs);
  let finest: Resolution = DAY;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    const dt = cfTimeToDateTime(v, units);
    const fine =
      dt.nanosecond !== 0 ? FRACTION : dt.second !== 0 ? SECOND : dt.minute !== 0 ? MINUTE : dt.hour !== 0 ? HOUR : DAY;
    if (fine > finest) finest = fine;
    if (finest === FRACTION) break;
  }
  return finest;
}

/** Milliseconds since the epoch as a timestamp value in `unit`. */
function fromMs(ms: number, unit: TimeUnit): number {
  if (unit === TimeUnit.SECOND) return ms / 1000;
  if (unit === TimeUnit.MILLISECOND) return ms;
  return unit === TimeUnit.MICROSECOND ? ms * 1000 : ms * 1_000_000;
}

/** A timestamp value in `unit` as milliseconds since the epoch ({@link fromMs} the other way). */
function toMs(value: number, unit: TimeUnit): number {
  if (unit === TimeUnit.SECOND) return value * 1000;
  if (unit === TimeUnit.MILLISECOND) return value;
  return unit === TimeUnit.MICROSECOND ? value / 1000 : value / 1_000_000;
}

/** True for an Int64 or UInt64 type: values past 2^53 that a number cannot hold. */
export function isInt64(type: DataType): boolean {
  return DataType.isInt(type) && (type as Int).bitWidth === 64;
}
