import { DataType } from "apache-arrow";
import type { Field } from "apache-arrow";

/**
 * Structural equality of two Arrow types, across copies of apache-arrow
 * (decided on `typeId` and the type's parameters, never `instanceof`).
 *
 * Compared: integer width and sign, float precision, decimal precision and
 * scale, date/time/duration/interval units, timestamp unit and time zone,
 * fixed sizes, and the value types of nested types (Struct and Union also
 * their field names, Dictionary its index and value types). Not compared:
 * field nullability and metadata, and the child field name of List-like types.
 *
 * @example
 * sameType(new Int32(), new Int32());                          // true
 * sameType(new TimestampSecond("UTC"), new TimestampSecond()); // false
 */
export function sameType(a: DataType, b: DataType): boolean {
  if (a === b) return true;
  if (a.typeId !== b.typeId) return false;
  if (DataType.isInt(a) && DataType.isInt(b)) return a.bitWidth === b.bitWidth && a.isSigned === b.isSigned;
  if (DataType.isFloat(a) && DataType.isFloat(b)) return a.precision === b.precision;
  if (DataType.isDecimal(a) && DataType.isDecimal(b)) {
    return a.precision === b.precision && a.scale === b.scale && a.bitWidth === b.bitWidth;
  }
  if (DataType.isDate(a) && DataType.isDate(b)) return a.unit === b.unit;
  if (DataType.isTime(a) && DataType.isTime(b)) return a.unit === b.unit && a.bitWidth === b.bitWidth;
  if (DataType.isTimestamp(a) && DataType.isTimestamp(b)) {
    return a.unit === b.unit && (a.timezone ?? null) === (b.timezone ?? null);
  }
  if (DataType.isInterval(a) && DataType.isInterval(b)) return a.unit === b.unit;
  if (DataType.isDuration(a) && DataType.isDuration(b)) return a.unit === b.unit;
  if (DataType.isFixedSizeBinary(a) && DataType.isFixedSizeBinary(b)) return a.byteWidth === b.byteWidth;
  if (DataType.isFixedSizeList(a) && DataType.isFixedSizeList(b)) {
    return a.listSize === b.listSize && sameChildTypes(a.children, b.children);
  }
  if (DataType.isMap(a) && DataType.isMap(b))
    return a.keysSorted === b.keysSorted && sameChildTypes(a.children, b.children);
  if (DataType.isStruct(a) && DataType.isStruct(b)) return sameFields(a.children, b.children);
  if (DataType.isUnion(a) && DataType.isUnion(b)) {
    return a.mode === b.mode && sameNumbers(a.typeIds, b.typeIds) && sameFields(a.children, b.children);
  }
  if (DataType.isDictionary(a) && DataType.isDictionary(b)) {
    return a.isOrdered === b.isOrdered && sameType(a.indices, b.indices) && sameType(a.dictionary, b.dictionary);
  }
  if (DataType.isList(a) && DataType.isList(b)) return sameChildTypes(a.children, b.children);
  return true;
}

function sameChildTypes(a: readonly Field[], b: readonly Field[]): boolean {
  return a.length === b.length && a.every((field, i) => sameType(field.type, b[i]!.type));
}

function sameFields(a: readonly Field[], b: readonly Field[]): boolean {
  return sameChildTypes(a, b) && a.every((field, i) => field.name === b[i]!.name);
}

function sameNumbers(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
