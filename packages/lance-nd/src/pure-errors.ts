import { isCastingError } from "@lance-nd/casting";
import { isFormatError } from "@lance-nd/format";
import { isNdArrowError } from "@lance-nd/nd-arrow";
import { isStatsError } from "@lance-nd/stats";
import { LanceNdError, type LanceNdErrorCode } from "./errors.js";

/** Where a pure-package error happened, from the library's point of view. */
export interface PureErrorContext {
  /** The table uri. */
  uri: string;
  /** The row of the call (index into the rows given), when known. */
  row?: number;
}

/**
 * Turns an error of the pure packages (nd-arrow, casting, stats, format) into
 * a {@link LanceNdError}, keeping the original as `cause` and its column and
 * row. Type conflicts become `SchemaMismatch`, an invalid table schema
 * `InvalidTable`, everything else `InvalidInput`. A `LanceNdError` passes
 * through; any other error is rethrown as is.
 */
function fromPureError(err: unknown, context: PureErrorContext): unknown {
  if (err instanceof LanceNdError) return err;
  const code = pureCode(err);
  if (code === undefined) return err;
  const source = err as Error & { column?: string; row?: number };
  return new LanceNdError(code, source.message, {
    uri: context.uri,
    ...(source.column === undefined ? {} : { column: source.column }),
    ...((context.row ?? source.row) === undefined ? {} : { row: context.row ?? source.row }),
    cause: err,
  });
}

function pureCode(err: unknown): LanceNdErrorCode | undefined {
  if (isFormatError(err, "InvalidTable")) return "InvalidTable";
  if (isFormatError(err, "SchemaMismatch") || isNdArrowError(err, "SchemaMismatch", "AttributeConflict"))
    return "SchemaMismatch";
  if (isCastingError(err, "InvalidCast", "NoCommonType")) return "SchemaMismatch";
  if (isFormatError(err) || isNdArrowError(err) || isCastingError(err) || isStatsError(err)) return "InvalidInput";
  return undefined;
}

/**
 * Runs `work` and rethrows a pure-package error as a {@link LanceNdError}
 * (see {@link fromPureError}).
 */
export function withPureErrors<T>(context: PureErrorContext, work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw fromPureError(err, context);
  }
}
