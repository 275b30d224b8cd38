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
export class NdArrowError extends Error {
  override readonly name = "NdArrowError";
  readonly code: NdArrowErrorCode;
  readonly column: string | undefined;
  readonly row: number | undefined;
  /** The message without the place (column, row) prefix. */
  readonly detail: string;

  constructor(code: NdArrowErrorCode, message: string, context: NdArrowErrorContext = {}) {
    super(withPlace(message, context), context.cause === undefined ? undefined : { cause: context.cause });
    this.code = code;
    this.detail = message;
    this.column = context.column;
    this.row = context.row;
  }
}

/** True when `err` is an {@link NdArrowError}, optionally with one of `codes`. */
export function isNdArrowError(err: unknown, ...codes: NdArrowErrorCode[]): err is NdArrowError {
  return err instanceof NdArrowError && (codes.length === 0 || codes.includes(err.code));
}

/**
 * The same error placed at `column` (unless it names one already) and `row`;
 * other errors pass through unchanged.
 */
export function placeError(err: unknown, column: string | undefined, row: number | undefined): unknown {
  if (!isNdArrowError(err)) return err;
  return new NdArrowError(err.code, err.detail, { column: err.column ?? column, row: row ?? err.row, cause: err });
}

function withPlace(message: string, { column, row }: NdArrowErrorContext): string {
  const place = [column === undefined ? "" : `column "${column}"`, row === undefined ? "" : `row ${row}`]
    .filter(Boolean)
    .join(", ");
  return place ? `${place}: ${message}` : message;
}
