import { util, type Vector } from "apache-arrow";
import { extremes } from "./extremes.js";
import type { StorageValue } from "./extremes.js";
import { statsStorage } from "./stats-type.js";
import type { Storage } from "./stats-type.js";

/**
 * One min or max, in the value's storage unit: a `number` for integers up to
 * 32 bits, floats (Float16 decoded), Date32 (days) and Time32; a `bigint` for
 * Int64, UInt64, Date64 (ms), Timestamp, Time64 and Duration (in the type's
 * unit); a `string` for Utf8 and LargeUtf8.
 */
export type StatValue = number | bigint | string;

/** The min and max of one vector; both null when no value counts. */
export interface Stats {
  readonly min: StatValue | null;
  readonly max: StatValue | null;
}

/**
 * The smallest and the largest value of `values` (FORMAT.md section 4,
 * rule 3). Null and NaN values do not count; ±Infinity does. Of 0 and -0 the
 * first one in the vector wins, as in numpy's `nanmin`. Strings order by
 * their UTF-8 bytes (code point order), not by JS string order.
 *
 * Returns null when the type gets no stats (see {@link hasStats}), and
 * `{ min: null, max: null }` when no value counts (empty, all null, all NaN).
 * Works on sliced and multi-chunk vectors.
 *
 * @example
 * computeStats(makeVector(new Float32Array([3, NaN, -1]))); // { min: -1, max: 3 }
 */
export function computeStats(values: Vector): Stats | null {
  const storage = statsStorage(values.type);
  if (storage === null) return null;
  const found = extremes(storage, values.data);
  if (found === null) return { min: null, max: null };
  return { min: toStatValue(storage, found.min), max: toStatValue(storage, found.max) };
}

function toStatValue(storage: Storage, value: StorageValue): StatValue {
  switch (storage.kind) {
    case "float16":
      return util.uint16ToFloat64(value as number);
    case "utf8":
      return new TextDecoder().decode(value as Uint8Array);
    default:
      return value as number | bigint;
  }
}
