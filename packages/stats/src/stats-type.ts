import { DateUnit, Precision, Type } from "apache-arrow";
import type { DataType } from "apache-arrow";

type NumberArrayConstructor =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor;

/**
 * How the values of a type with stats are stored, so how its min and max are
 * found and written: `number` and `bigint` compare the stored values,
 * `float16` decodes the Uint16 bits, `utf8` compares the bytes.
 * One shared object per storage, so storages compare with `===`.
 */
export type Storage =
  | { readonly kind: "number"; readonly ArrayType: NumberArrayConstructor }
  | { readonly kind: "bigint"; readonly ArrayType: BigInt64ArrayConstructor | BigUint64ArrayConstructor }
  | { readonly kind: "float16"; readonly ArrayType: Uint16ArrayConstructor }
  | { readonly kind: "utf8"; readonly large: boolean };

const INT8: Storage = { kind: "number", ArrayType: Int8Array };
const UINT8: Storage = { kind: "number", ArrayType: Uint8Array };
const INT16: Storage = { kind: "number", ArrayType: Int16Array };
const UINT16: Storage = { kind: "number", ArrayType: Uint16Array };
const INT32: Storage = { kind: "number", ArrayType: Int32Array };
const UINT32: Storage = { kind: "number", ArrayType: Uint32Array };
const FLOAT32: Storage = { kind: "number", ArrayType: Float32Array };
const FLOAT64: Storage = { kind: "number", ArrayType: Float64Array };
const INT64: Storage = { kind: "bigint", ArrayType: BigInt64Array };
const UINT64: Storage = { kind: "bigint", ArrayType: BigUint64Array };
const FLOAT16: Storage = { kind: "float16", ArrayType: Uint16Array };
const UTF8: Storage = { kind: "utf8", large: false };
const LARGE_UTF8: Storage = { kind: "utf8", large: true };

interface TypeParams {
  readonly bitWidth?: number;
  readonly isSigned?: boolean;
  readonly precision?: number;
  readonly unit?: number;
}

/**
 * The storage of `type` when it gets stats (FORMAT.md 4.2),
 * else null. Decides on `typeId` and the type's parameters only, never on
 * `instanceof`, so types of a second apache-arrow copy work too.
 */
export function statsStorage(type: DataType): Storage | null {
  const { bitWidth, isSigned, precision, unit } = type as DataType & TypeParams;
  switch (type.typeId) {
    case Type.Int:
      switch (bitWidth) {
        case 8:
          return isSigned ? INT8 : UINT8;
        case 16:
          return isSigned ? INT16 : UINT16;
        case 32:
          return isSigned ? INT32 : UINT32;
        case 64:
          return isSigned ? INT64 : UINT64;
        default:
          return null;
      }
    case Type.Float:
      switch (precision) {
        case Precision.HALF:
          return FLOAT16;
        case Precision.SINGLE:
          return FLOAT32;
        case Precision.DOUBLE:
          return FLOAT64;
        default:
          return null;
      }
    case Type.Utf8:
      return UTF8;
    case Type.LargeUtf8:
      return LARGE_UTF8;
    case Type.Date:
      return unit === DateUnit.DAY ? INT32 : INT64;
    case Type.Time:
      return bitWidth === 32 ? INT32 : INT64;
    case Type.Timestamp:
    case Type.Duration:
      return INT64;
    default:
      return null;
  }
}

/**
 * True when a variable of value type `type` gets a stats column: integers,
 * floats (Float16, Float32, Float64), Utf8, LargeUtf8, Timestamp, Date32,
 * Date64, Time32, Time64 and Duration. Bool, Binary and every other type get
 * none. (apache-arrow 18 has no Utf8View type, so it cannot be passed here.)
 *
 * @example
 * hasStats(new Float32()); // true
 * hasStats(new Bool());    // false
 */
export function hasStats(type: DataType): boolean {
  return statsStorage(type) !== null;
}

/**
 * True when values of `a` can stand in a stats column of type `b`: same
 * `typeId`, same storage and same unit. A Timestamp's time zone is ignored.
 */
export function sameStatsType(a: DataType, b: DataType): boolean {
  const storage = statsStorage(a);
  return (
    storage !== null &&
    a.typeId === b.typeId &&
    storage === statsStorage(b) &&
    (a as DataType & TypeParams).unit === (b as DataType & TypeParams).unit
  );
}
