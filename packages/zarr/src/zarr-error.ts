import {
  codedErrorGuard,
  FileCodedError,
  quotedPlace,
  type CodedErrorGuard,
  type FileErrorContext,
} from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type ZarrErrorCode =
  | "NotFound" // no Zarr store or group at the path
  | "VariableNotFound" // no array of that name in the store
  | "DimNotFound" // a selection or row size naming a dim the array (or store) does not have
  | "InvalidStore" // metadata that is not valid Zarr, or arrays whose dims disagree
  | "UnsupportedType" // a data type with no faithful nd-arrow (or Zarr) counterpart
  | "UnsupportedAttribute" // an attribute value with no faithful counterpart
  | "ReadFailed" // a chunk could not be read or decoded
  | "CfFailed" // CF decoding or encoding (@lance-nd/cf) failed; its CfError is the cause
  | "InvalidArgument" // an index outside its dim, a bad selection value, chunk size, option or row
  | "WriteFailed"; // the output could not be written

/** Where an error happened, as far as it is known: the store (directory) path and the array (variable) name. */
export type ZarrErrorContext = FileErrorContext;

/**
 * The one error type of `@lance-nd/zarr`. `code` says what went wrong;
 * `path` and `variable` say where; `cause` holds zarrita's or the file
 * system's own error.
 *
 * @example
 * try { await openZarr("missing.zarr"); } catch (err) {
 *   if (isZarrError(err, "NotFound")) console.error(err.message);
 * }
 */
export class ZarrError extends FileCodedError<ZarrErrorCode> {
  override readonly name = "ZarrError";

  constructor(code: ZarrErrorCode, message: string, context: ZarrErrorContext = {}) {
    super(code, message, context, [context.path, quotedPlace("array", context.variable)]);
  }
}

/**
 * The error `parseOptions` (`@lance-nd/casting/coded-error`) throws for
 * options of the store at `path` that their schema refuses:
 * `InvalidArgument`, its message starting with the store.
 */
export function zarrOptionsError(path: string): (message: string, cause: unknown) => ZarrError {
  return (message, cause) => new ZarrError("InvalidArgument", message, { path, cause });
}

/** True when `err` is a {@link ZarrError}, optionally with one of `codes`. */
export const isZarrError: CodedErrorGuard<ZarrError, ZarrErrorCode> = codedErrorGuard("ZarrError");
