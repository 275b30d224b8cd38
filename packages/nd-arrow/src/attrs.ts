/**
 * Attribute values (FORMAT.md section 3.1): a scalar of a supported type other than
 * Binary, or a list of such scalars; the JS mapping; typed helpers.
 */
import {
  Bool,
  DateDay,
  DateMillisecond,
  Duration,
  Field,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeUtf8,
  List,
  Time,
  TimeUnit,
  Timestamp,
  Type,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
} from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import { NdArrowError } from "./errors.js";
import { isSupportedAttrType } from "./schema.js";
import { isTypedArray, jsValueType, sameType, typedArrayType } from "./data-type.js";
import type { TypedArray } from "./data-type.js";
import { isVector, toVector } from "./values.js";

/**
 * One attribute value. `type` is the Arrow type of the attribute (`T` or
 * `List<T>`); `value` holds the data: a length-1 vector of `T` for a scalar,
 * the vector of the items for a list.
 *
 * @example
 * const units = new Attr(new Utf8(), vectorFromArray(["K"], new Utf8()));
 * units.toJS(); // "K"
 */
export class Attr {
  /** The attribute type: a scalar type, or `List<T>` for list attributes. */
  readonly type: DataType;
  /** Scalar: a length-1 vector of `type`. List: the vector of the items. */
  readonly value: Vector;
  /** True for list attributes. */
  readonly isList: boolean;

  /**
   * Throws `UnsupportedType` for a type outside FORMAT.md section 3.1 and
   * `InvalidArgument` when `value` does not hold one value of `type` (or the
   * items of a list `type`).
   */
  constructor(type: DataType, value: Vector) {
    if (!isSupportedAttrType(type)) {
      throw new NdArrowError("UnsupportedType", `unsupported attribute type ${type}`);
    }
    this.type = type;
    this.value = value;
    this.isList = type.typeId === Type.List;
    const itemType = this.isList ? (type as List).children[0]!.type : type;
    if (!sameType(value.type, itemType)) {
      throw new NdArrowError("InvalidArgument", `attribute value is ${value.type}, expected ${itemType}`);
    }
    if (!this.isList && value.length !== 1) {
      throw new NdArrowError("InvalidArgument", `a scalar attribute holds one value, got ${value.length}`);
    }
  }

  /** The item type: `T` for both `T` and `List<T>`. */
  get itemType(): DataType {
    return this.value.type;
  }

  /**
   * The value as JS: the scalar (string, number, boolean, bigint for 64-bit
   * integers, epoch milliseconds for timestamps and dates, `null`), or an
   * array of such items for a list.
   */
  toJS(): unknown {
    return this.isList ? Array.from(this.value) : this.value.get(0);
  }
}

/** Ordered attributes, key to value. */
export type Attrs = ReadonlyMap<string, Attr>;

/** What callers may pass as one attribute value (FORMAT.md section 3.1 JS mapping). */
export type AttrInput =
  | string
  | number
  | boolean
  | bigint
  | Date
  | ArrayLike<number | string | boolean | bigint>
  | readonly Date[]
  | TypedArray
  | Attr;

/** What callers may pass as a set of attributes. */
export type AttrsInput = Record<string, AttrInput> | ReadonlyMap<string, AttrInput>;

/** Where an attribute sits, for error messages. */
export interface AttrPlace {
  column?: string;
  key?: string;
}

/**
 * Converts a JS value to an {@link Attr}: string -> Utf8, boolean -> Bool,
 * bigint -> Int64, number -> Float64, Date -> Timestamp(ms, "UTC"), arrays
 * and typed arrays -> `List` of their element type (an empty JS array is
 * `List<Float64>`). An `Attr` passes through. Throws `InvalidArgument`
 * naming the column and key for anything else (null, objects, mixed arrays).
 *
 * @example
 * toAttr("K").type;            // Utf8
 * toAttr([0, 40]).type;        // List<Float64>
 * toAttr(new Int16Array(2));   // List<Int16>
 */
export function toAttr(input: AttrInput, where: AttrPlace = {}): Attr {
  if (input instanceof Attr) return input;
  const fail = (why: string): never => {
    throw new NdArrowError("InvalidArgument", `attribute "${where.key ?? ""}": ${why}`, { column: where.column });
  };
  const scalarType = jsValueType(input);
  if (scalarType !== undefined && !(input instanceof Uint8Array)) {
    return new Attr(scalarType, toVector([input], scalarType));
  }
  if (isVector(input)) return fail("pass an Arrow vector with attr.of(type, values)");
  if (isTypedArray(input)) return list(typedArrayType(input), input);
  if (typeof input === "object" && input !== null && typeof (input as ArrayLike<unknown>).length === "number") {
    const items = input as ArrayLike<unknown>;
    let itemType: DataType | undefined;
    for (let i = 0; i < items.length; i++) {
      const t = jsValueType(items[i]);
      if (t === undefined || t.typeId === Type.Binary)
        return fail(`item ${i} is not a string, number, boolean, bigint or Date`);
      if (itemType !== undefined && !sameType(t, itemType))
        return fail(`items ${0} and ${i} have different types (${itemType}, ${t})`);
      itemType = t;
    }
    return list(itemType ?? new Float64(), items);
  }
  return fail(`cannot map ${input === null ? "null" : typeof input} to an attribute type`);
}

/**
 * Converts a record or map of attribute inputs to ordered {@link Attrs}.
 * Keys must be non-empty (`InvalidArgument`).
 */
export function toAttrs(input: AttrsInput | undefined, column?: string): Attrs {
  const out = new Map<string, Attr>();
  if (input === undefined) return out;
  const entries = isReadonlyMap(input) ? input.entries() : Object.entries(input);
  for (const [key, value] of entries) {
    if (key === "") throw new NdArrowError("InvalidArgument", "attribute keys must not be empty", { column });
    out.set(key, toAttr(value, { column, key }));
  }
  return out;
}

function isReadonlyMap<V>(value: object): value is ReadonlyMap<string, V> {
  return value instanceof Map;
}

function list(itemType: DataType, items: ArrayLike<unknown>): Attr {
  return new Attr(new List(new Field("item", itemType, true)), toVector(items, itemType));
}

/** One typed helper: a scalar for one value, a list for an array of values. */
export type AttrHelper<V> = (value: V | ArrayLike<V>) => Attr;

function helper<V>(makeType: () => DataType): AttrHelper<V> {
  return (value) => attrOf(makeType(), value as never);
}

/**
 * An attribute of exactly `type` (a scalar type): a scalar for one value, a
 * `List<type>` for an array, typed array or vector of values.
 */
function attrOf(type: DataType, value: unknown): Attr {
  const isMany = isVector(value) || isTypedArray(value) || Array.isArray(value);
  if (isMany) return list(type, value as ArrayLike<unknown>);
  return new Attr(type, toVector([value], type));
}

/** A time unit by its short name. */
export type TimeUnitName = "s" | "ms" | "us" | "ns";

const UNITS: Record<TimeUnitName, TimeUnit> = {
  s: TimeUnit.SECOND,
  ms: TimeUnit.MILLISECOND,
  us: TimeUnit.MICROSECOND,
  ns: TimeUnit.NANOSECOND,
};

/**
 * Typed attribute helpers, for types the JS mapping does not pick. Each takes
 * one value (a scalar attribute) or an array of values (a list attribute).
 * Numbers and bigints of temporal types are raw values in the type's unit;
 * `Date`s convert.
 *
 * @example
 * attr.float32([270, 310]);                 // List<Float32>
 * attr.int16(-1);                           // Int16
 * attr.timestamp("s", "UTC")(new Date());   // Timestamp<SECOND, UTC>
 * attr.of(new Uint8(), [1, 2]);             // List<Uint8>
 */
export const attr = {
  int8: helper<number>(() => new Int8()),
  int16: helper<number>(() => new Int16()),
  int32: helper<number>(() => new Int32()),
  int64: helper<bigint | number>(() => new Int64()),
  uint8: helper<number>(() => new Uint8()),
  uint16: helper<number>(() => new Uint16()),
  uint32: helper<number>(() => new Uint32()),
  uint64: helper<bigint | number>(() => new Uint64()),
  float16: helper<number>(() => new Float16()),
  float32: helper<number>(() => new Float32()),
  float64: helper<number>(() => new Float64()),
  bool: helper<boolean>(() => new Bool()),
  utf8: helper<string>(() => new Utf8()),
  largeUtf8: helper<string>(() => new LargeUtf8()),
  /** Timestamp of a unit, with an optional time zone. */
  timestamp: (unit: TimeUnitName, timezone?: string): AttrHelper<Date | number | bigint> =>
    helper(() => new Timestamp(UNITS[unit], timezone ?? null)),
  date32: helper<Date | number>(() => new DateDay()),
  date64: helper<Date | number | bigint>(() => new DateMillisecond()),
  /** Time of day: `s`/`ms` are Time32, `us`/`ns` Time64. */
  time: (unit: TimeUnitName): AttrHelper<number | bigint> =>
    helper(() => new Time(UNITS[unit], unit === "s" || unit === "ms" ? 32 : 64)),
  duration: (unit: TimeUnitName): AttrHelper<number | bigint> => helper(() => new Duration(UNITS[unit])),
  /** An attribute of any supported scalar type `type`. */
  of: (type: DataType, value: unknown): Attr => attrOf(type, value),
};
