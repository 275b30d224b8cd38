import { CodedError, codedErrorGuard, quotedPlace, type CodedErrorGuard } from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type NdArrowErrorCode =
  | "InvalidShape" // values length is not the product of the dim sizes
  | "InvalidDims" // empty, duplicate, or mismatched dim names / sizes
  | "GridMismatch" // arrays of one batch disagree on a dimension size
  | "ReservedName" // an array name that starts with "__"
  | "UnsupportedType" // a value or attribute type outside FORMAT.md sections 3 and 3.1
  | "InvalidLayout" // an Arrow column that is not the nd_arrow layout
  | "SchemaMismatch" // a row does not fit the schema it must be encoded into
  | "AttributeConflict" // one attribute key with two types
  | "ChunkMismatch" // chunks that leave gaps, overlap or disagree
  | "DimNotFound" // a window or selection naming a dim that is not there
  | "InvalidArgument"; // any other bad argument

/** Where an error happened, as far as it is known. */
export interface NdArrowErrorContext {
  /** The array (column) name. */
  column?: string;
  /** The row (record batch index) in an encode/decode call. */
  row?: number;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error type of `@lance-nd/nd-arrow`. `code` says which rule was
 * broken; `column` and `row` say where.
 *
 * @example
 * try { decode(rb); } catch (err) {
 *   if (isNdArrowError(err, "InvalidShape")) console.error(err.column, err.row);
 * }
 */
export class NdArrowError extends CodedError<NdArrowErrorCode> {
  override readonly name = "NdArrowError";
  readonly column: string | undefined;
  readonly row: number | undefined;

  constructor(code: NdArrowErrorCode, message: string, context: NdArrowErrorContext = {}) {
    super(code, message, [quotedPlace("column", context.column), rowPlace(context.row)], context.cause);
    this.column = context.column;
    this.row = context.row;
  }
}

/** True when `err` is an {@link NdArrowError}, optionally with one of `codes`. */
export const isNdArrowError: CodedErrorGuard<NdArrowError, NdArrowErrorCode> = codedErrorGuard("NdArrowError");

/**
 * The same error placed at `column` (unless it names one already) and `row`;
 * other errors pass through unchanged.
 */
export function placeError(err: unknown, column: string | undefined, row: number | undefined): unknown {
  if (!isNdArrowError(err)) return err;
  return new NdArrowError(err.code, err.detail, { column: err.column ?? column, row: row ?? err.row, cause: err });
}

function rowPlace(row: number | undefined): string | undefined {
  return row === undefined ? undefined : `row ${row}`;
}
