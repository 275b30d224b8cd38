/**
 * Date texts on time coordinates, as pandas' partial string indexing reads
 * them: `"2001-03"` is the period of March in the coordinate's own calendar
 * (noleap, 360_day, ... as the CF `calendar` says), and whether a text is a
 * period or one instant depends on how fine the coordinate's values are.
 */
import { DataType, DateUnit, type Date_, type Timestamp } from "apache-arrow";
import {
  cfTimeToDateTime,
  dateTimeToCfTime,
  isCfError,
  parseCfTimeUnits,
  type CfDateTime,
  type CfTimeUnits,
} from "@lance-nd/cf";
import type { Attrs } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";
import type { CoordinateNumber } from "./selection.js";

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
