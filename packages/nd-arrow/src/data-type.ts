/**
 * Arrow data type helpers that dispatch on `typeId` (never `instanceof`, so
 * types from a second copy of apache-arrow work too).
 */
import {
  Binary,
  Bool,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  Precision,
  TimestampMillisecond,
  Type,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
} from "apache-arrow";
import type { DataType, Float } from "apache-arrow";
import type { NumericArray } from "@lance-nd/casting";

/** The typed arrays the codec accepts as values: the numeric ones and Uint8ClampedArray (as Uint8). */
export type TypedArray = NumericArray | Uint8ClampedArray;

/**
 * Structural equality of Arrow types: the one implementation is
 * @lance-nd/casting's `sameType` (every type parameter and child type;
 * List item names and nullability ignored, Struct and Union field names
 * compared). nd-arrow checks chunk, attribute and tensor types with it.
 */
export { sameType } from "@lance-nd/casting";

/** True for Float16 (stored as raw half-precision bits in a Uint16Array). */
export function isFloat16(type: DataType): boolean {
  return type.typeId === Type.Float && (type as Float).precision === Precision.HALF;
}

/** The Arrow type of a typed array's elements (Uint8ClampedArray is UInt8). */
export function typedArrayType(values: TypedArray): DataType {
  if (values instanceof Float64Array) return new Float64();
  if (values instanceof Float32Array) return new Float32();
  if (values instanceof Int8Array) return new Int8();
  if (values instanceof Int16Array) return new Int16();
  if (values instanceof Int32Array) return new Int32();
  if (values instanceof BigInt64Array) return new Int64();
  if (values instanceof Uint16Array) return new Uint16();
  if (values instanceof Uint32Array) return new Uint32();
  if (values instanceof BigUint64Array) return new Uint64();
  return new Uint8();
}

/** True for any typed array (not a DataView). */
export function isTypedArray(value: unknown): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/**
 * The Arrow type of one JS value, as FORMAT.md section 3.1 maps it: string -> Utf8,
 * boolean -> Bool, bigint -> Int64, number -> Float64, Date ->
 * Timestamp(ms, "UTC"), Uint8Array -> Binary. `undefined` for anything else.
 */
export function jsValueType(value: unknown): DataType | undefined {
  switch (typeof value) {
    case "string":
      return new Utf8();
    case "boolean":
      return new Bool();
    case "bigint":
      return new Int64();
    case "number":
      return new Float64();
    default:
      if (value instanceof Date) return new TimestampMillisecond("UTC");
      if (value instanceof Uint8Array) return new Binary();
      return undefined;
  }
}
