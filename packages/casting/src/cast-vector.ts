import { Vector } from "apache-arrow";
import type { Data, DataType } from "apache-arrow";
import { canCast } from "./can-cast.js";
import { CastingError, invalidCast, typeName, valueOutOfRange } from "./casting-error.js";
import type { Casting } from "./can-cast.js";
import type { Fail } from "./casting-error.js";
import { castNumericData } from "./numeric-kernel.js";
import { numericType } from "./numeric.js";
import { sameType } from "./same-type.js";
import { castTemporalData } from "./temporal-kernel.js";
import { temporalType } from "./temporal.js";
import { castVariableWidthData } from "./variable-width-kernel.js";
import { variableWidthType } from "./variable-width.js";

/**
 * Casts the values of `vector` to `to` under `casting` (numpy's `astype` with
 * a casting check), chunk by chunk over typed arrays.
 *
 * - Identical types: returns `vector` itself (no copy).
 * - "safe" changes no value (numpy's one exception: Int64/UInt64 -> Float64
 *   rounds beyond 2^53); "same_kind" may narrow: an integer that does not fit
 *   fails, floats round as IEEE (overflow gives ±Infinity, -0 and NaN stay),
 *   coarser temporal units floor.
 * - Nulls stay null (the validity bitmap is copied); values under nulls are
 *   never checked.
 *
 * Throws `CastingError` "InvalidCast" (naming both types and the mode) when
 * `casting` does not allow the cast, "ValueOutOfRange" with the `index` and
 * `value` of the first value that does not fit.
 *
 * @example
 * const v = makeVector(new Int32Array([1, 2, 3]));
 * castVector(v, new Float64(), "safe").toArray(); // Float64Array [1, 2, 3]
 */
export function castVector<T extends DataType>(vector: Vector, to: T, casting: Casting): Vector<T> {
  const from = vector.type;
  if (sameType(from, to)) return vector as unknown as Vector<T>;
  if (!canCast(from, to, casting)) throw invalidCast(from, to, casting);
  let start = 0;
  const chunks = vector.data.map((data) => {
    const out = castData(data, to, casting, start);
    start += data.length;
    return out;
  });
  return new Vector(chunks) as Vector<T>;
}

/**
 * Casts one chunk whose cast `casting` allows (the caller checked); `start` is
 * the chunk's position in its vector, for error indexes.
 */
export function castData(data: Data, to: DataType, casting: Casting, start: number): Data {
  const from = data.type;
  if (sameType(from, to)) return data;
  const fail: Fail = (i, value) => {
    throw valueOutOfRange(from, to, casting, start + i, value);
  };
  const numericFrom = numericType(from);
  const numericTo = numericType(to);
  if (numericFrom !== undefined && numericTo !== undefined)
    return castNumericData(data, numericFrom, numericTo, to, fail);
  const temporalFrom = temporalType(from);
  const temporalTo = temporalType(to);
  if (temporalFrom !== undefined && temporalTo !== undefined)
    return castTemporalData(data, temporalFrom, temporalTo, to, fail);
  const bytesFrom = variableWidthType(from);
  const bytesTo = variableWidthType(to);
  if (bytesFrom !== undefined && bytesTo !== undefined)
    return castVariableWidthData(data, bytesFrom, bytesTo, to, fail);
  throw new CastingError("UnsupportedType", `no cast from ${typeName(from)} to ${typeName(to)}`, {
    from: typeName(from),
    to: typeName(to),
    casting,
  });
}
