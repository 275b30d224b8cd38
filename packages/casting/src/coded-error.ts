/**
 * The one error skeleton of the lance-nd packages: each package has one
 * error class extending {@link CodedError} (`CastingError`, `NdArrowError`,
 * `LanceNdError`, ...) with its own codes and place fields, or
 * {@link FileCodedError} for a file and a variable (`NetcdfError`,
 * `ZarrError`, `CliError`), and one guard made by {@link codedErrorGuard}.
 * It lives here because casting is the lowest package that needs it.
 */

/**
 * An error with a stable machine-readable `code`, a message that starts with
 * where it happened (`variable "sst", row 3: ...`) and the underlying error
 * as `cause`.
 */
export abstract class CodedError<Code extends string> extends Error {
  /** What went wrong; stable across releases. */
  readonly code: Code;
  /** The message without the place prefix. */
  readonly detail: string;

  /**
   * @param place the parts of the place the message starts with, in order;
   *   `undefined` and empty parts are left out.
   */
  protected constructor(code: Code, message: string, place: readonly (string | undefined)[], cause: unknown) {
    const where = place.filter((part) => part !== undefined && part !== "").join(", ");
    super(where === "" ? message : `${where}: ${message}`, cause === undefined ? undefined : { cause });
    this.code = code;
    this.detail = message;
  }
}

/** The guard of one {@link CodedError} class: true when `err` is one, optionally with one of `codes`. */
export type CodedErrorGuard<E extends CodedError<Code>, Code extends string> = (
  err: unknown,
  ...codes: Code[]
) => err is E;

/**
 * The guard of the error class called `name`. It matches by `name` and
 * `code`, not `instanceof`, so an error thrown by a second copy of the
 * package in one process (two installed versions) is still recognised.
 *
 * @example
 * export const isZarrError: CodedErrorGuard<ZarrError, ZarrErrorCode> = codedErrorGuard("ZarrError");
 */
export function codedErrorGuard<E extends CodedError<Code>, Code extends string>(
  name: string,
): CodedErrorGuard<E, Code> {
  return (err: unknown, ...codes: Code[]): err is E => {
    if (!(err instanceof Error) || err.name !== name) return false;
    const code = (err as { code?: unknown }).code;
    return typeof code === "string" && (codes.length === 0 || codes.includes(code as Code));
  };
}

/** A place part `label "name"` (e.g. `variable "sst"`), or undefined when `name` is. */
export function quotedPlace(label: string, name: string | undefined): string | undefined {
  return name === undefined ? undefined : `${label} "${name}"`;
}

/** Where an error of a package that reads and writes files happened, as far as it is known. */
export interface FileErrorContext {
  /** The file or store (a path, or `<bytes>` for a file read from memory). */
  path?: string;
  /** The variable (array) involved. */
  variable?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * A {@link CodedError} about a file or store and a variable in it: the base of
 * the error classes of the file packages (`NetcdfError`, `ZarrError`,
 * `CliError`).
 */
export abstract class FileCodedError<Code extends string> extends CodedError<Code> {
  /** The file or store, when known. */
  readonly path: string | undefined;
  /** The variable (array), when known. */
  readonly variable: string | undefined;

  /**
   * @param place the parts of the place the message starts with (see
   *   {@link CodedError}); none by default.
   */
  protected constructor(
    code: Code,
    message: string,
    context: FileErrorContext,
    place: readonly (string | undefined)[] = [],
  ) {
    super(code, message, place, context.cause);
    this.path = context.path;
    this.variable = context.variable;
  }
}

/**
 * Option problems (zod's issues: a path and a message each) as one line,
 * `options.version: Invalid input; options.cf: ...`: the message of the
 * `InvalidArgument` a package throws for options its zod schema refuses.
 */
export function optionProblems(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${["options", ...i.path.map(String)].join(".")}: ${i.message}`).join("; ");
}
