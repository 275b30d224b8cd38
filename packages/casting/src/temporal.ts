import { DataType, DateDay, DateMillisecond, Duration, Time, type TimeUnit, Timestamp } from "apache-arrow";

/** numpy's temporal kinds: datetime64 (Date, Timestamp), timedelta64 (Duration), and time of day (Time). */
type TemporalKind = "datetime" | "timedelta" | "time";

/** A temporal Arrow type reduced to what the casting rules look at. */
export interface TemporalType {
  readonly kind: TemporalKind;
  /** 0 day, 1 second, 2 millisecond, 3 microsecond, 4 nanosecond: larger is finer. */
  readonly resolution: number;
  /** Timestamp time zone; null for naive timestamps, dates, durations and times. */
  readonly timezone: string | null;
  readonly isDate: boolean;
  /** True when values are stored as 64-bit integers, false for 32-bit. */
  readonly wide: boolean;
}

/** FACTORS[r] is the number of units of resolution r + 1 in one unit of resolution r. */
const FACTORS: readonly number[] = [86_400, 1000, 1000, 1000];
const DAY = 0;
const MILLISECOND = 2;

/** The temporal view of `type`, or undefined when it is not Date, Timestamp, Duration or Time. */
export function temporalType(type: DataType): TemporalType | undefined {
  if (DataType.isDate(type)) {
    const day = type.unit === 0;
    return { kind: "datetime", resolution: day ? DAY : MILLISECOND, timezone: null, isDate: true, wide: !day };
  }
  if (DataType.isTimestamp(type)) {
    return { kind: "datetime", resolution: type.unit + 1, timezone: type.timezone ?? null, isDate: false, wide: true };
  }
  if (DataType.isDuration(type)) {
    return { kind: "timedelta", resolution: type.unit + 1, timezone: null, isDate: false, wide: true };
  }
  if (DataType.isTime(type)) {
    return { kind: "time", resolution: type.unit + 1, timezone: null, isDate: false, wide: type.bitWidth === 64 };
  }
  return undefined;
}

/**
 * The weakest casting that allows `from` -> `to` (different types of one kind),
 * or undefined across kinds. Coarser -> finer in the same zone is safe, as
 * numpy's datetime64[s] -> datetime64[ms]; a finer unit, a zone change, or a
 * Timestamp to a Date (which floors to the day) is same_kind.
 */
export function temporalLevel(from: TemporalType, to: TemporalType): "safe" | "same_kind" | undefined {
  if (from.kind !== to.kind) return undefined;
  const safe = from.resolution <= to.resolution && from.timezone === to.timezone && (from.isDate || !to.isDate);
  return safe ? "safe" : "same_kind";
}

/**
 * The finer of two temporal types of one kind and zone (numpy promotes
 * datetime64[s] and datetime64[ms] to datetime64[ms]); two dates stay a date,
 * a date with a timestamp becomes a timestamp. Undefined across kinds or zones.
 */
export function temporalPromote(a: TemporalType, b: TemporalType): DataType | undefined {
  if (a.kind !== b.kind || a.timezone !== b.timezone) return undefined;
  const resolution = Math.max(a.resolution, b.resolution);
  switch (a.kind) {
    case "datetime":
      if (a.isDate && b.isDate) return resolution === DAY ? new DateDay() : new DateMillisecond();
      return new Timestamp((resolution - 1) as TimeUnit, a.timezone);
    case "timedelta":
      return new Duration((resolution - 1) as TimeUnit);
    case "time":
      return new Time((resolution - 1) as TimeUnit, resolution <= MILLISECOND ? 32 : 64);
  }
}

/**
 * The integer steps that turn a `from` value into a `to` value: a positive
 * step multiplies, a negative one floor-divides (as numpy does). Every step is
 * below 2^17, which the 64-bit arithmetic in wide.ts relies on. A Timestamp
 * cast to a Date first floors to the day.
 */
export function temporalSteps(from: TemporalType, to: TemporalType): number[] {
  const via = to.isDate && !from.isDate ? DAY : to.resolution;
  const steps: number[] = [];
  for (let r = from.resolution; r > via; r--) steps.push(-FACTORS[r - 1]!);
  for (let r = Math.min(from.resolution, via); r < to.resolution; r++) steps.push(FACTORS[r]!);
  return steps;
}
