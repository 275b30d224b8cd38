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
export class StatsError extends Error {
  override readonly name = "StatsError";
  readonly code: StatsErrorCode;
  readonly variable: string | undefined;
  readonly row: number | undefined;

  constructor(code: StatsErrorCode, message: string, context: StatsErrorContext = {}) {
    super(withPlace(message, context), context.cause === undefined ? undefined : { cause: context.cause });
    this.code = code;
    this.variable = context.variable;
    this.row = context.row;
  }
}

/** True when `err` is a {@link StatsError}, optionally with one of `codes`. */
export function isStatsError(err: unknown, ...codes: StatsErrorCode[]): err is StatsError {
  return err instanceof StatsError && (codes.length === 0 || codes.includes(err.code));
}

function withPlace(message: string, { variable, row }: StatsErrorContext): string {
  const place = [variable === undefined ? "" : `variable "${variable}"`, row === undefined ? "" : `row ${row}`]
    .filter(Boolean)
    .join(", ");
  return place ? `${place}: ${message}` : message;
}
