/**
 * The buffers of the value types nd-arrow gathers (FORMAT.md "Types"), as
 * three layouts: bit-packed (Bool), fixed width (numbers, temporal types) and
 * variable width (Utf8, Binary and their Large variants, with 32 or 64-bit
 * offsets). Helpers to classify a type, view and build its buffers.
 */
import { makeData, Type } from "apache-arrow";
import type { Data, DataType } from "apache-arrow";
import type { TypedArray } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { bitmapBytes } from "./bits.js";

const TWO_32 = 4294967296;

/** How a value type lays out its values: bit-packed, fixed width, or offsets plus bytes. */
export type Kind = "bits" | "fixed" | "varlen";

/** `makeData` for the three kinds, typed as the source's `Data<T>`. */
export function build<T extends DataType>(
  type: T,
  length: number,
  nullCount: number,
  nullBitmap: Uint8Array | undefined,
  buffers: { data: TypedArray; valueOffsets?: Int32Array | BigInt64Array },
): Data<T> {
  return makeData({ type, length, nullCount, nullBitmap, ...buffers } as never) as unknown as Data<T>;
}

/** The layout of `type`; throws `UnsupportedType` for a type nd-arrow does not gather. */
export function kindOf(type: DataType): Kind {
  switch (type.typeId) {
    case Type.Bool:
      return "bits";
    case Type.Int:
    case Type.Float:
    case Type.Timestamp:
    case Type.Date:
    case Type.Time:
    case Type.Duration:
      return "fixed";
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.LargeBinary:
      return "varlen";
    default:
      throw new NdArrowError("UnsupportedType", `cannot gather values of type ${type}`);
  }
}

/** The bytes of a typed array (a view, no copy). */
export function bytesOf(values: TypedArray): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** A view of `bytes` with the typed-array class of `like` (the type's `ArrayType`). */
export function retype(bytes: Uint8Array, like: TypedArray): TypedArray {
  const Ctor = like.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray;
  const per = like.BYTES_PER_ELEMENT;
  return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / per);
}

/** A view of the bytes as 1, 2 or 4-byte unsigned units. */
export function unitView(buffer: ArrayBufferLike, byteOffset: number, byteLength: number, unit: number) {
  if (unit === 1) return new Uint8Array(buffer, byteOffset, byteLength);
  if (unit === 2) return new Uint16Array(buffer, byteOffset, byteLength / 2);
  return new Uint32Array(buffer, byteOffset, byteLength / 4);
}

/** Offsets as 32-bit words: one per offset (Int32) or a low/high pair (Int64, little-endian). */
export interface OffsetView {
  words: Int32Array;
  wide: boolean;
}

/** True for the types with 64-bit offsets. */
export function isWide(type: DataType): boolean {
  return type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary;
}

/** An {@link OffsetView} of an offsets buffer. */
export function offsetView(offsets: Int32Array | BigInt64Array, wide: boolean): OffsetView {
  return {
    words: new Int32Array(offsets.buffer, offsets.byteOffset, wide ? offsets.length * 2 : offsets.length),
    wide,
  };
}

/** Offset `i`. */
export function offsetAt({ words, wide }: OffsetView, i: number): number {
  return wide ? (words[2 * i]! >>> 0) + words[2 * i + 1]! * TWO_32 : words[i]!;
}

/** Sets offset `i`. */
export function setOffset({ words, wide }: OffsetView, i: number, value: number): void {
  if (wide) {
    words[2 * i] = value % TWO_32;
    words[2 * i + 1] = Math.floor(value / TWO_32);
  } else {
    words[i] = value;
  }
}

/** A zeroed offsets buffer of `count` offsets. */
export function newOffsets(count: number, wide: boolean): Int32Array | BigInt64Array {
  return wide ? new BigInt64Array(count) : new Int32Array(count);
}

/** Throws `InvalidArgument` when `total` bytes do not fit 32-bit offsets. */
export function checkByteLength(total: number, wide: boolean): void {
  if (!wide && total > 0x7fffffff) {
    throw new NdArrowError("InvalidArgument", `result holds ${total} bytes, more than 32-bit offsets can address`);
  }
}

/** `length` null values of `type` (zeroed buffers), e.g. the slots under a null list row. */
export function nullData<T extends DataType>(type: T, length: number): Data<T> {
  const nullBitmap = new Uint8Array(bitmapBytes(length));
  switch (kindOf(type)) {
    case "bits":
      return build(type, length, length, nullBitmap, { data: new Uint8Array(bitmapBytes(length)) });
    case "fixed":
      return build(type, length, length, nullBitmap, {
        data: new (type.ArrayType as new (n: number) => TypedArray)(length),
      });
    case "varlen":
      return build(type, length, length, nullBitmap, {
        data: new Uint8Array(0),
        valueOffsets: newOffsets(length + 1, isWide(type)),
      });
  }
}
