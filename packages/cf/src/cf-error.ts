import { CodedError, codedErrorGuard, quotedPlace, type CodedErrorGuard } from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type CfErrorCode =
  | "InvalidUnits" // a `units` attribute that is not `<unit> since <date>` where a time is expected
  | "UnsupportedCalendar" // a calendar that is not one of CF's
  | "InvalidDate" // a date its calendar lacks (29 February in noleap, 31 March in 360_day)
  | "OutOfRange" // a time that does not fit the decoded or encoded type
  | "InvalidAttribute" // a CF attribute (_FillValue, scale_factor, ...) of an unusable type
  | "UnsupportedType" // values of a type the operation does not apply to
  | "LossyMask"; // with `lossless`: a cell holds a missing value that encoding would not write back

/** Where an error happened, as far as it is known. */
export interface CfErrorContext {
  /** The variable (array name), when the caller passed one. */
  variable?: string;
  /** The attribute involved, e.g. `units` or `_FillValue`. */
  attribute?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error type of `@lance-nd/cf`. `code` says which rule was broken;
 * `variable` and `attribute` say where.
 *
 * @example
 * try { cfDecode(time, { times: true, name: "time" }); } catch (err) {
 *   if (isCfError(err, "UnsupportedCalendar")) console.error(err.message);
 * }
 */
export class CfError extends CodedError<CfErrorCode> {
  override readonly name = "CfError";
  readonly variable: string | undefined;
  readonly attribute: string | undefined;

  constructor(code: CfErrorCode, message: string, context: CfErrorContext = {}) {
    const attribute = context.attribute === undefined ? undefined : `attribute ${context.attribute}`;
    super(code, message, [quotedPlace("variable", context.variable), attribute], context.cause);
    this.variable = context.variable;
    this.attribute = context.attribute;
  }
}

/** True when `err` is a {@link CfError}, optionally with one of `codes`. */
export const isCfError: CodedErrorGuard<CfError, CfErrorCode> = codedErrorGuard("CfError");
