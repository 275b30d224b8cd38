import { Bool, DataType, Float, Int, Precision } from "apache-arrow";

/** numpy's kinds of numbers, in the order a same_kind cast may move along. */
type NumericKind = "bool" | "unsigned" | "signed" | "float";

/** A Bool, integer or float Arrow type reduced to its kind and width. */
export interface NumericType {
  readonly kind: NumericKind;
  /** Bits per value: 1 for Bool, 8 to 64 for integers, 16, 32 or 64 for floats. */
  readonly bits: number;
}

const KIND_ORDER: readonly NumericKind[] = ["bool", "unsigned", "signed", "float"];

/** Promotion looks for the first type in this order that both inputs cast to safely. */
const PROMOTION_ORDER: readonly NumericType[] = [
  { kind: "bool", bits: 1 },
  ...[8, 16, 32, 64].map((bits) => ({ kind: "unsigned" as const, bits })),
  ...[8, 16, 32, 64].map((bits) => ({ kind: "signed" as const, bits })),
  ...[16, 32, 64].map((bits) => ({ kind: "float" as const, bits })),
];

/** The numeric view of `type`, or undefined when it is not Bool, Int or Float. */
export function numericType(type: DataType): NumericType | undefined {
  if (DataType.isBool(type)) return { kind: "bool", bits: 1 };
  if (DataType.isInt(type)) return { kind: type.isSigned ? "signed" : "unsigned", bits: type.bitWidth };
  if (DataType.isFloat(type)) {
    const bits = type.precision === Precision.HALF ? 16 : type.precision === Precision.SINGLE ? 32 : 64;
    return { kind: "float", bits };
  }
  return undefined;
}

/**
 * numpy's safe rule: every value of `from` is a value of `to`. A float of
 * b bits holds the integers of b/2 bits (Float16 holds Int8/UInt8, Float32 up
 * to 16 bits), and, numpy's one exception, Float64 takes every integer,
 * although an Int64/UInt64 beyond 2^53 rounds.
 */
export function numericSafe(from: NumericType, to: NumericType): boolean {
  if (from.kind === "bool") return true;
  switch (to.kind) {
    case "bool":
      return false;
    case "unsigned":
      return from.kind === "unsigned" && to.bits >= from.bits;
    case "signed":
      return from.kind === "signed" ? to.bits >= from.bits : from.kind === "unsigned" && to.bits > from.bits;
    case "float":
      return from.kind === "float" ? to.bits >= from.bits : to.bits === 64 || from.bits <= to.bits / 2;
  }
}

/** numpy's same_kind rule: safe, or within a kind, or to a later kind. */
export function numericSameKind(from: NumericType, to: NumericType): boolean {
  return KIND_ORDER.indexOf(from.kind) <= KIND_ORDER.indexOf(to.kind);
}

/**
 * numpy.promote_types over numbers: the first type (bool, unsigned, signed,
 * float; narrow before wide) that both cast to safely. Every number casts
 * safely to Float64, so the search always ends (Int64 and UInt64 give Float64).
 */
export function numericPromote(a: NumericType, b: NumericType): NumericType {
  return PROMOTION_ORDER.find((t) => numericSafe(a, t) && numericSafe(b, t))!;
}

/** The Arrow type of a numeric view, e.g. `{ kind: "signed", bits: 16 }` -> Int16. */
export function numericDataType(t: NumericType): DataType {
  switch (t.kind) {
    case "bool":
      return new Bool();
    case "unsigned":
    case "signed":
      return new Int(t.kind === "signed", t.bits as 8 | 16 | 32 | 64);
    case "float":
      return new Float(t.bits === 16 ? Precision.HALF : t.bits === 32 ? Precision.SINGLE : Precision.DOUBLE);
  }
}
