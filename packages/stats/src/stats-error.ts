import { CodedError, codedErrorGuard, quotedPlace, type CodedErrorGuard } from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type StatsErrorCode =
  | "UnsupportedType" // the value type gets no stats (FORMAT.md 4.2)
  | "TypeMismatch" // a row vector does not have the type of its stats column
  | "InvalidName"; // an empty variable name

/** Where an error happened, as far as it is known. */
export interface StatsErrorContext {
  /** The variable (array name) whose stats failed. */
  variable?: string;
  /** The row (entry of `buildStatsColumn`'s `rows`). */
  row?: number;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error type of `@lance-nd/stats`. `code` says which rule was broken;
 * `variable` and `row` say where.
 *
 * @example
 * try { buildStatsColumn(new Bool(), rows); } catch (err) {
 *   if (isStatsError(err, "UnsupportedType")) console.error(err.message);
 * }
 */
export class StatsError extends CodedError<StatsErrorCode> {
  override readonly name = "StatsError";
  readonly variable: string | undefined;
  readonly row: number | undefined;

  constructor(code: StatsErrorCode, message: string, context: StatsErrorContext = {}) {
    const row = context.row === undefined ? undefined : `row ${context.row}`;
    super(code, message, [quotedPlace("variable", context.variable), row], context.cause);
    this.variable = context.variable;
    this.row = context.row;
  }
}

/** True when `err` is a {@link StatsError}, optionally with one of `codes`. */
export const isStatsError: CodedErrorGuard<StatsError, StatsErrorCode> = codedErrorGuard("StatsError");
