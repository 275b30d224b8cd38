/**
 * Building Arrow value vectors from typed arrays, JS arrays or vectors.
 * Typed arrays whose element type is the storage of the Arrow type are
 * wrapped without a copy; everything else is converted once.
 */
import { type Data, DateUnit, Type, TimeUnit, Vector, makeData } from "apache-arrow";
import { numberToFloat16 } from "@lance-nd/casting";
import type { DataType, Date_, Timestamp } from "apache-arrow";
import { NdArrowError } from "./errors.js";
import type { NdArrowErrorContext } from "./errors.js";
import { isFloat16, isTypedArray, jsValueType, sameType, typedArrayType } from "./data-type.js";
import type { TypedArray } from "./data-type.js";

/** What the codec accepts as the values of an array or attribute. */
export type ValuesInput = TypedArray | ArrayLike<unknown> | Vector;

const MS_PER_DAY = 86_400_000;
const encoder = new TextEncoder();

/** True when `value` looks like an Arrow Vector (duck-typed: works across apache-arrow copies). */
export function isVector(value: unknown): value is Vector {
  if (typeof value !== "object" || value === null) return false;
  const v = value as { type?: { typeId?: unknown }; data?: unknown };
  return typeof v.type?.typeId === "number" && Array.isArray(v.data);
}

/** Wraps one Data in a Vector. */
export function vectorOf<T extends DataType>(data: Data<T>): Vector<T> {
  return new Vector([data]);
}

/**
 * An Arrow vector of `values`, of `type` when given, else of the type the
 * input implies (typed array element type; for JS arrays the FORMAT.md section 3.1
 * mapping of the first non-null value, Float64 when there is none).
 *
 * - A Vector is returned as is; a `type` that differs is `InvalidArgument`
 *   (cast it first, e.g. with `@lance-nd/casting`).
 * - A typed array that is the storage of `type` (Float32Array for Float32,
 *   BigInt64Array for Int64 or Timestamp, Uint16Array for Float16 bits, ...)
 *   is wrapped without a copy.
 * - Other inputs are converted: numbers and bigints are raw values in the
 *   type's unit, `Date`s convert to the unit, `null`/`undefined` are nulls.
 *   Numbers round to Float16 as IEEE does (`@lance-nd/casting`'s
 *   `numberToFloat16`: ties to even, 65520 and above to Infinity).
 *
 * @example
 * toVector(new Float32Array([1, 2]));                       // Float32, no copy
 * toVector([1, null, 3], new Int32());                      // Int32 with a null
 * toVector([new Date(0)], new TimestampSecond("UTC"));      // 0 seconds
 */
export function toVector(values: ValuesInput, type?: DataType, where: NdArrowErrorContext = {}): Vector {
  if (isVector(values)) {
    if (type !== undefined && !sameType(values.type, type)) {
      throw new NdArrowError(
        "InvalidArgument",
        `values are ${values.type}, not the requested ${type}; cast them first`,
        where,
      );
    }
    return values;
  }
  if (isTypedArray(values)) {
    const target = type ?? typedArrayType(values);
    if (isStorageOf(values, target)) {
      return vectorOf(makeData({ type: target, length: values.length, data: values } as never) as Data);
    }
    return vectorOf(dataFromJS(values, target, where));
  }
  if (typeof values !== "object" || values === null || typeof values.length !== "number") {
    throw new NdArrowError(
      "InvalidArgument",
      `values must be a typed array, an array or an Arrow Vector, got ${typeof values}`,
      where,
    );
  }
  return vectorOf(dataFromJS(values, type ?? inferType(values, where), where));
}

function isStorageOf(values: TypedArray, type: DataType): boolean {
  if (
    type.typeId === Type.Bool ||
    type.typeId === Type.Utf8 ||
    type.typeId === Type.LargeUtf8 ||
    type.typeId === Type.Binary
  ) {
    return false;
  }
  const ArrayType = (type as { ArrayType?: unknown }).ArrayType;
  return typeof ArrayType === "function" && values.constructor === ArrayType;
}

function inferType(values: ArrayLike<unknown>, where: NdArrowErrorContext): DataType {
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) continue;
    const type = jsValueType(value);
    if (type === undefined) {
      throw new NdArrowError(
        "InvalidArgument",
        `cannot map the JS value ${describe(value)} at index ${i} to an Arrow type`,
        where,
      );
    }
    return type;
  }
  return jsValueType(0)!;
}

/**
 * Converts JS values (or a typed array of another storage type) to Arrow
 * data of `type`, one pass, nulls for `null`/`undefined`.
 */
export function dataFromJS(values: ArrayLike<unknown>, type: DataType, where: NdArrowErrorContext = {}): Data {
  const length = values.length;
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  const isNull = (i: number): boolean => {
    const v = values[i];
    if (v !== null && v !== undefined) return false;
    nullBitmap ??= new Uint8Array((length + 7) >> 3).fill(0xff);
    nullBitmap[i >> 3]! &= ~(1 << (i & 7));
    nullCount++;
    return true;
  };
  const bad = (i: number): never => {
    throw new NdArrowError("InvalidArgument", `value ${describe(values[i])} at index ${i} does not fit ${type}`, where);
  };
  const common = { type, length } as const;
  switch (type.typeId) {
    case Type.Bool: {
      const bits = new Uint8Array((length + 7) >> 3);
      for (let i = 0; i < length; i++) {
        if (isNull(i)) continue;
        const v = values[i];
        if (typeof v !== "boolean" && typeof v !== "number") bad(i);
        if (v) bits[i >> 3]! |= 1 << (i & 7);
      }
      return makeData({ ...common, data: bits, nullBitmap, nullCount } as never);
    }
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary: {
      const chunks: Uint8Array[] = [];
      const offsets = new Int32Array(length + 1);
      let total = 0;
      for (let i = 0; i < length; i++) {
        if (!isNull(i)) {
          const v = values[i];
          const bytes =
            type.typeId === Type.Binary
              ? v instanceof Uint8Array
                ? v
                : bad(i)
              : typeof v === "string"
                ? encoder.encode(v)
                : bad(i);
          chunks.push(bytes);
          total += bytes.length;
        }
        offsets[i + 1] = total;
      }
      const data = new Uint8Array(total);
      let at = 0;
      for (const c of chunks) {
        data.set(c, at);
        at += c.length;
      }
      const valueOffsets = type.typeId === Type.LargeUtf8 ? BigInt64Array.from(offsets, BigInt) : offsets;
      return makeData({ ...common, data, valueOffsets, nullBitmap, nullCount } as never);
    }
    default:
      return makeData({ ...common, data: fixedWidthFromJS(values, type, isNull, bad), nullBitmap, nullCount } as never);
  }
}

function fixedWidthFromJS(
  values: ArrayLike<unknown>,
  type: DataType,
  isNull: (i: number) => boolean,
  bad: (i: number) => never,
): TypedArray {
  const ArrayType = (type as { ArrayType?: unknown }).ArrayType;
  if (typeof ArrayType !== "function") {
    throw new NdArrowError("UnsupportedType", `cannot build values of type ${type}`);
  }
  const out = new (ArrayType as new (n: number) => TypedArray)(values.length);
  const big = out instanceof BigInt64Array || out instanceof BigUint64Array;
  const half = isFloat16(type);
  const msFactor = dateFactor(type);
  for (let i = 0; i < values.length; i++) {
    if (isNull(i)) continue;
    let v = values[i];
    if (v instanceof Date) {
      if (msFactor === undefined) bad(i);
      v = big
        ? (BigInt(v.getTime()) * BigInt(msFactor![1])) / BigInt(msFactor![0])
        : Math.floor((v.getTime() * msFactor![1]) / msFactor![0]);
    } else if (typeof v === "boolean") {
      v = Number(v);
    }
    if (big) {
      if (typeof v === "number" && Number.isInteger(v)) v = BigInt(v);
      if (typeof v !== "bigint") bad(i);
      out[i] = v as never;
    } else {
      if (typeof v === "bigint") v = Number(v);
      if (typeof v !== "number") bad(i);
      out[i] = (half ? numberToFloat16(v as number) : v) as never;
    }
  }
  return out;
}

/** For temporal types a Date converts to: value = ms * num / den, as [den, num]. */
function dateFactor(type: DataType): [number, number] | undefined {
  switch (type.typeId) {
    case Type.Timestamp:
      switch ((type as Timestamp).unit) {
        case TimeUnit.SECOND:
          return [1000, 1];
        case TimeUnit.MILLISECOND:
          return [1, 1];
        case TimeUnit.MICROSECOND:
          return [1, 1000];
        default:
          return [1, 1_000_000];
      }
    case Type.Date:
      return (type as Date_).unit === DateUnit.DAY ? [MS_PER_DAY, 1] : [1, 1];
    default:
      return undefined;
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return value.constructor?.name ?? "object";
  return String(value);
}
