/**
 * Coordinate values from `sel` values: numbers and bigints as they are,
 * number texts exactly, Dates in the coordinate's own units (a timestamp's
 * or date's unit, or the CF time `units` attribute of a numeric coordinate,
 * "days since 2000-01-01"). Date texts are periods: `date-period.ts`.
 */
import { DataType, DateUnit, TimeUnit, type Date_, type Int, type Timestamp } from "apache-arrow";
import { dateToCfTime, formatCfTime, isCfTimeUnits } from "@lance-nd/cf";
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
