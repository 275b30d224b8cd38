import type { Casting } from "@lance-nd/casting";
import { CodedError, codedErrorGuard, type CodedErrorGuard } from "@lance-nd/casting/coded-error";
import type { DataType } from "apache-arrow";

/** What went wrong, as a stable machine-readable code. */
export type FormatErrorCode =
  | "InvalidTable" // a table schema that breaks the lance-nd format v1
  | "SchemaMismatch" // incoming rows whose types do not fit the table under the casting mode
  | "InvalidInput" // bad options or a schema that is not an nd schema
  | "ReservedName"; // an array name that starts with "__"

/** The casting modes of a write: numpy's (`CASTINGS` of @lance-nd/casting) and "promote" (see `CASTING_MODES`). */
export type CastingMode = Casting | "promote";

/** Where and why an error happened, as far as it is known. */
export interface FormatErrorContext {
  /** The column (array name, `__global_attrs__` or a stats column). */
  column?: string;
  /** The attribute key, for an attribute or global attribute. */
  key?: string;
  /** The incoming type. */
  from?: DataType;
  /** The table type. */
  to?: DataType;
  /** The casting mode of the write. */
  casting?: CastingMode;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error type of `@lance-nd/format`. `code` says which rule was
 * broken; `column`, `key`, `from`, `to` and `casting` say where and why.
 *
 * @example
 * try { planWrite(table, incoming, { casting: "safe" }); } catch (err) {
 *   if (isFormatError(err, "SchemaMismatch")) console.error(err.column, String(err.from), String(err.to));
 * }
 */
export class FormatError extends CodedError<FormatErrorCode> {
  override readonly name = "FormatError";
  readonly column: string | undefined;
  readonly key: string | undefined;
  readonly from: DataType | undefined;
  readonly to: DataType | undefined;
  readonly casting: CastingMode | undefined;

  constructor(code: FormatErrorCode, message: string, context: FormatErrorContext = {}) {
    super(code, message, [], context.cause);
    this.column = context.column;
    this.key = context.key;
    this.from = context.from;
    this.to = context.to;
    this.casting = context.casting;
  }
}

/** True when `err` is a {@link FormatError}, optionally with one of `codes`. */
export const isFormatError: CodedErrorGuard<FormatError, FormatErrorCode> = codedErrorGuard("FormatError");
