import type { DataType } from "apache-arrow";
import { CastingError, typeName } from "./casting-error.js";
import { numericDataType, numericPromote, numericType } from "./numeric.js";
import { sameType } from "./same-type.js";
import { temporalPromote, temporalType } from "./temporal.js";
import { variableWidthPromote, variableWidthType } from "./variable-width.js";

/**
 * numpy.promote_types over Arrow types: the smallest type both `a` and `b`
 * cast to safely (numpy's Float64 for a 64-bit integer with UInt64 or a
 * float, which is not exact). Identical types give `a`.
 * Throws `CastingError` "NoCommonType" when there is none (e.g. Utf8 and
 * Int32, or timestamps in two time zones).
 *
 * @example
 * promoteTypes(new Int32(), new Float32()); // Float64
 * promoteTypes(new UInt8(), new Int8());    // Int16
 */
export function promoteTypes(a: DataType, b: DataType): DataType {
  if (sameType(a, b)) return a;
  const promoted = promote(a, b);
  if (promoted === undefined) {
    throw new CastingError("NoCommonType", `no common type for ${typeName(a)} and ${typeName(b)}`, {
      from: typeName(a),
      to: typeName(b),
    });
  }
  return promoted;
}

function promote(a: DataType, b: DataType): DataType | undefined {
  const numericA = numericType(a);
  const numericB = numericType(b);
  if (numericA !== undefined && numericB !== undefined) return numericDataType(numericPromote(numericA, numericB));
  const temporalA = temporalType(a);
  const temporalB = temporalType(b);
  if (temporalA !== undefined && temporalB !== undefined) return temporalPromote(temporalA, temporalB);
  const bytesA = variableWidthType(a);
  const bytesB = variableWidthType(b);
  if (bytesA !== undefined && bytesB !== undefined) return variableWidthPromote(bytesA, bytesB);
  return undefined;
}
