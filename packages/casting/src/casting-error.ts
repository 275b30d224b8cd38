import type { DataType } from "apache-arrow";
import type { Casting } from "./can-cast.js";
import { CodedError, codedErrorGuard, type CodedErrorGuard } from "./coded-error.js";

/** What went wrong in a cast or a promotion. */
export type CastingErrorCode = "InvalidCast" | "ValueOutOfRange" | "NoCommonType" | "UnsupportedType";

/** The typed fields a {@link CastingError} may carry. */
export interface CastingErrorDetails {
  /** The source type, as Arrow prints it (e.g. `Int64`). */
  readonly from?: string;
  /** The target type, as Arrow prints it. */
  readonly to?: string;
  readonly casting?: Casting;
  /** Position of the first offending value in the vector (over all its chunks). */
  readonly index?: number;
  /** The first offending value (a `bigint` for 64-bit integers). */
  readonly value?: unknown;
  readonly cause?: unknown;
}

/**
 * The one error class of `@lance-nd/casting`. `code` says what went wrong;
 * `from`, `to`, `casting`, `index` and `value` say where.
 */
export class CastingError extends CodedError<CastingErrorCode> {
  override readonly name = "CastingError";
  readonly from?: string;
  readonly to?: string;
  readonly casting?: Casting;
  readonly index?: number;
  readonly value?: unknown;

  constructor(code: CastingErrorCode, message: string, details: CastingErrorDetails = {}) {
    super(code, message, [], details.cause);
    if (details.from !== undefined) this.from = details.from;
    if (details.to !== undefined) this.to = details.to;
    if (details.casting !== undefined) this.casting = details.casting;
    if (details.index !== undefined) this.index = details.index;
    if ("value" in details) this.value = details.value;
  }
}

/**
 * True when `err` is a {@link CastingError}, and, if codes are given, has one
 * of them. Works across copies of this package (it checks `name` and `code`).
 *
 * @example
 * try { castVector(v, new Int8(), "same_kind"); }
 * catch (err) { if (isCastingError(err, "ValueOutOfRange")) console.log(err.index, err.value); }
 */
export const isCastingError: CodedErrorGuard<CastingError, CastingErrorCode> = codedErrorGuard("CastingError");

/** The name of an Arrow type as messages print it, e.g. `Timestamp<MILLISECOND, UTC>`. */
export function typeName(type: DataType): string {
  return String(type);
}

/** How a cast kernel reports the first value (index within the chunk) that does not fit: it throws. */
export type Fail = (i: number, value: unknown) => never;

/** The error for a cast that `casting` does not allow. */
export function invalidCast(from: DataType, to: DataType, casting: Casting): CastingError {
  return new CastingError(
    "InvalidCast",
    `cannot cast ${typeName(from)} to ${typeName(to)} under casting "${casting}"`,
    { from: typeName(from), to: typeName(to), casting },
  );
}

/** The error for the first value (at `index`) that does not fit the target type. */
export function valueOutOfRange(
  from: DataType,
  to: DataType,
  casting: Casting,
  index: number,
  value: unknown,
): CastingError {
  return new CastingError(
    "ValueOutOfRange",
    `cannot cast ${typeName(from)} to ${typeName(to)} under casting "${casting}": value ${String(value)} at index ${index} does not fit ${typeName(to)}`,
    { from: typeName(from), to: typeName(to), casting, index, value },
  );
}
