import { CodedError, codedErrorGuard, type CodedErrorGuard } from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type NetcdfErrorCode =
  | "FileNotFound" // an input path that does not exist
  | "InvalidFile" // not netCDF, CDF-5, damaged or truncated
  | "InvalidArgument" // an unknown variable or dim, a window outside the file, a bad option
  | "UnsupportedType" // an array type netCDF cannot hold (Binary, Time, Duration)
  | "UnsupportedText" // char values or a char attribute that are not UTF-8 text
  | "UnsupportedFilter" // a variable compressed with an HDF5 filter that no loaded plugin provides
  | "WriteFailed"; // the output file could not be written

/** Where an error happened, as far as it is known. */
export interface NetcdfErrorContext {
  /** The file (a path, or `<bytes>`). */
  path?: string;
  /** The variable involved. */
  variable?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error type of `@lance-nd/netcdf`; messages start with the file.
 *
 * @example
 * try { await openNetcdf("x.nc"); } catch (err) {
 *   if (isNetcdfError(err, "InvalidFile")) console.error(err.message);
 * }
 */
export class NetcdfError extends CodedError<NetcdfErrorCode> {
  override readonly name = "NetcdfError";
  readonly path: string | undefined;
  readonly variable: string | undefined;

  constructor(code: NetcdfErrorCode, message: string, context: NetcdfErrorContext = {}) {
    super(code, message, [], context.cause);
    this.path = context.path;
    this.variable = context.variable;
  }
}

/** True when `err` is a {@link NetcdfError}, optionally with one of `codes`. */
export const isNetcdfError: CodedErrorGuard<NetcdfError, NetcdfErrorCode> = codedErrorGuard("NetcdfError");
