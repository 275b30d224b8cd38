import {
  codedErrorGuard,
  FileCodedError,
  type CodedErrorGuard,
  type FileErrorContext,
} from "@lance-nd/casting/coded-error";

/** What went wrong, as a stable machine-readable code. */
export type CliErrorCode =
  | "FileNotFound" // an input path that does not exist
  | "InvalidFile" // a file that is not (or no longer) what the command reads
  | "InvalidArgument" // a bad option or argument value
  | "WriteFailed" // an output file could not be written
  | "CommandFailed"; // a command failed: the message says what, `cause` why

/** Where an error happened, as far as it is known: the file the command was reading or writing and the variable. */
export type CliErrorContext = FileErrorContext;

/**
 * The one error type of `@lance-nd/cli`. The command line prints its
 * `message` as one line and exits with code 1.
 *
 * @example
 * try { await readNetcdf("x.nc"); } catch (err) {
 *   if (isCliError(err, "InvalidFile")) console.error(err.message);
 * }
 */
export class CliError extends FileCodedError<CliErrorCode> {
  override readonly name = "CliError";

  constructor(code: CliErrorCode, message: string, context: CliErrorContext = {}) {
    super(code, message, context);
  }
}

/** True when `err` is a {@link CliError}, optionally with one of `codes`. */
export const isCliError: CodedErrorGuard<CliError, CliErrorCode> = codedErrorGuard("CliError");
