import { Field, Struct, makeData, makeVector } from "apache-arrow";
import type { Data, DataType, Vector } from "apache-arrow";
import { extremes } from "./extremes.js";
import type { Extremes, StorageValue } from "./extremes.js";
import { StatsError } from "./stats-error.js";
import { statsColumnName } from "./stats-names.js";
import { sameStatsType, statsStorage } from "./stats-type.js";
import type { Storage } from "./stats-type.js";

/**
 * The stats field of `variable` with value type `type`: a nullable
 * `__stats__:<variable>` field of type `Struct{min: T, max: T}`, both
 * children nullable (FORMAT.md 4.1). Throws `UnsupportedType` when
 * `type` gets no stats, `InvalidName` for an empty variable.
 *
 * @example
 * statsField("sst", new Float32()); // __stats__:sst: Struct<{min: Float32, max: Float32}>
 */
export function statsField(variable: string, type: DataType): Field<Struct> {
  checkStatsType(type, variable);
  return new Field(statsColumnName(variable), statsStruct(type), true);
}

/**
 * The type of a stats column for values of type `type`: `Struct{min: T,
 * max: T}`, both children nullable. Throws `UnsupportedType` when `type`
 * gets no stats (see `hasStats`).
 *
 * @example
 * statsType(new Float32()); // Struct<{min: Float32, max: Float32}>
 */
export function statsType(type: DataType): Struct {
  checkStatsType(type);
  return statsStruct(type);
}

/**
 * The stats column of one variable of value type `type`, one row per entry
 * of `rows`: a null entry (the row does not have the variable) gives a null
 * row; a vector gives its min and max, or a valid row with null min and max
 * when no value counts (FORMAT.md 4.4 and 4.5). The children of a null
 * row are valid: null min and max.
 *
 * Built over typed arrays: the min and max of each row are written straight
 * into the child buffers, strings as bytes.
 *
 * Throws `UnsupportedType` when `type` gets no stats, `TypeMismatch` (with
 * the row) when a vector has another type than `type`.
 *
 * @example
 * const column = buildStatsColumn(new Int32(), [makeVector(new Int32Array([4, 1])), null]);
 * column.get(0)?.toJSON(); // { min: 1, max: 4 }
 * column.get(1);           // null
 */
export function buildStatsColumn(type: DataType, rows: ReadonlyArray<Vector | null>): Vector<Struct> {
  const storage = checkStatsType(type);
  const length = rows.length;
  const rowValidity = new Uint8Array((length + 7) >> 3);
  const statValidity = new Uint8Array((length + 7) >> 3);
  const found: Array<Extremes | null> = new Array<Extremes | null>(length).fill(null);
  let nullRows = 0;
  let nullStats = 0;
  for (let row = 0; row < length; row++) {
    const vector = rows[row];
    if (vector === null || vector === undefined) {
      nullRows++;
      nullStats++;
      continue;
    }
    if (!sameStatsType(vector.type, type)) {
      throw new StatsError(
        "TypeMismatch",
        `the values have type ${String(vector.type)}, but the stats column has type ${String(type)} (the type of the variable)`,
        { row },
      );
    }
    rowValidity[row >> 3]! |= 1 << (row & 7);
    const rowExtremes = extremes(storage, vector.data);
    if (rowExtremes === null) {
      nullStats++;
      continue;
    }
    statValidity[row >> 3]! |= 1 << (row & 7);
    found[row] = rowExtremes;
  }
  const child = (pick: (e: Extremes) => StorageValue): Data =>
    childData(storage, type, found, pick, nullStats === 0 ? null : statValidity, nullStats);
  const data = makeData({
    type: statsStruct(type),
    length,
    nullCount: nullRows,
    nullBitmap: nullRows === 0 ? null : rowValidity,
    children: [child((e) => e.min), child((e) => e.max)],
  });
  return makeVector(data);
}

function checkStatsType(type: DataType, variable?: string): Storage {
  const storage = statsStorage(type);
  if (storage === null) {
    throw new StatsError(
      "UnsupportedType",
      `${String(type)} gets no stats (only integer, float, Utf8, LargeUtf8, Timestamp, Date, Time and Duration do)`,
      variable === undefined ? {} : { variable },
    );
  }
  return storage;
}

function statsStruct(type: DataType): Struct {
  return new Struct([new Field("min", type, true), new Field("max", type, true)]);
}

/**
 * One child (min or max) of a stats column, from the extremes of each row.
 * `type` is only known as a DataType here, so makeData's per-type overloads
 * cannot be chosen statically (hence `as never`); `storage` comes from that
 * same type, so the buffers fit it.
 */
function childData(
  storage: Storage,
  type: DataType,
  found: ReadonlyArray<Extremes | null>,
  pick: (e: Extremes) => StorageValue,
  nullBitmap: Uint8Array | null,
  nullCount: number,
): Data {
  const length = found.length;
  if (storage.kind === "utf8") {
    const strings = found.map((e) => (e === null ? EMPTY : (pick(e) as Uint8Array)));
    const bytes = new Uint8Array(strings.reduce((total, s) => total + s.length, 0));
    const offsets = storage.large ? new BigInt64Array(length + 1) : new Int32Array(length + 1);
    let end = 0;
    strings.forEach((s, row) => {
      bytes.set(s, end);
      end += s.length;
      offsets[row + 1] = storage.large ? BigInt(end) : end;
    });
    return makeData({ type, length, nullCount, nullBitmap, valueOffsets: offsets, data: bytes } as never);
  }
  const values = new storage.ArrayType(length);
  found.forEach((e, row) => {
    if (e !== null) values[row] = pick(e) as never;
  });
  return makeData({ type, length, nullCount, nullBitmap, data: values } as never);
}

const EMPTY = new Uint8Array(0);
