import {
  codedErrorGuard,
  FileCodedError,
  type CodedErrorGuard,
  type FileErrorContext,
} from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type NetcdfErrorCode =
  | "FileNotFound" // an input path that does not exist
  | "InvalidFile" // not netCDF, CDF-5, damaged or truncated
  | "VariableNotFound" // no variable of that name in the file
  | "GroupNotFound" // no group of that path in the file
  | "DimNotFound" // a selection or chunk size naming a dim the variable (or file) does not have
  | "InvalidArgument" // an index outside its dim, a bad selection value, a bad option
  | "UnsupportedType" // an array type netCDF cannot hold (Time, Duration)
  | "UnsupportedText" // char values or a char attribute that are not UTF-8 text
  | "UnsupportedFilter" // a variable compressed with an HDF5 filter that no loaded plugin provides
  | "WriteFailed"; // the output file could not be written

/** Where an error happened, as far as it is known: the file (a path, or `<bytes>`) and the variable. */
export type NetcdfErrorContext = FileErrorContext;

/**
 * The one error type of `@lance-nd/netcdf`; messages start with the file.
 *
 * @example
 * try { await openNetcdf("x.nc"); } catch (err) {
 *   if (isNetcdfError(err, "InvalidFile")) console.error(err.message);
 * }
 */
export class NetcdfError extends FileCodedError<NetcdfErrorCode> {
  override readonly name = "NetcdfError";

  constructor(code: NetcdfErrorCode, message: string, context: NetcdfErrorContext = {}) {
    super(code, message, context);
  }
}

/**
 * The error `parseOptions` (`@lance-nd/casting/coded-error`) throws for
 * options of the file at `path` that their schema refuses: `InvalidArgument`,
 * its message starting with the file.
 */
export function netcdfOptionsError(path: string): (message: string, cause: unknown) => NetcdfError {
  return (message, cause) => new NetcdfError("InvalidArgument", `${path}: ${message}`, { path, cause });
}

/** True when `err` is a {@link NetcdfError}, optionally with one of `codes`. */
export const isNetcdfError: CodedErrorGuard<NetcdfError, NetcdfErrorCode> = codedErrorGuard("NetcdfError");
