/**
 * The one error skeleton of the lance-nd packages: each package has one
 * error class extending {@link CodedError} (`CastingError`, `NdArrowError`,
 * `LanceNdError`, ...) with its own codes and place fields, or
 * {@link FileCodedError} for a file and a variable (`NetcdfError`,
 * `ZarrError`, `CliError`), and one guard made by {@link codedErrorGuard}.
 * Options are checked the one way of {@link parseOptions}: zod's issues
 * become one message ({@link optionsMessage}) in the package's own error.
 * It lives here because casting is the lowest package, which every other
 * package depends on.
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
 * One problem a zod schema found in options: the path of the option in the
 * options object, why, and for an unknown option (`unrecognized_keys`) the
 * unknown names. zod's issues have this shape; casting does not depend on
 * zod.
 */
export interface OptionIssue {
  /** zod's issue code, e.g. `invalid_type`, `unrecognized_keys`. */
  readonly code?: string;
  /** Where in the options (`[]` for the options object itself). */
  readonly path: readonly PropertyKey[];
  /** Why the value is refused. */
  readonly message: string;
  /** The unknown option names of an `unrecognized_keys` issue. */
  readonly keys?: readonly string[];
}

/** A zod schema of options, as far as {@link parseOptions} uses it. */
export interface OptionsSchema<T> {
  /** zod's `safeParse`. */
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly OptionIssue[] } };
}

/**
 * The one message for the options of `call` that a zod schema refuses:
 * `invalid open options: ` and then each problem, separated by `; `: an
 * option that has a wrong value as its path, its value and why
 * (`storageOptions.timeout = 5: expected an object of string values`;
 * `options` is the options object itself), an unknown one by its name
 * (`unknown option "nope"`). The error class it goes into says where (the
 * file or table).
 *
 * @example
 * optionsMessage("open", { branch: "" }, [{ path: ["branch"], message: "expected a branch name" }]);
 * // 'invalid open options: branch = "": expected a branch name'
 */
export function optionsMessage(call: string, input: unknown, issues: readonly OptionIssue[]): string {
  const problems = issues.map((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys" && issue.keys !== undefined) {
      const names = issue.keys.map((key) => JSON.stringify([...path, key].join(".")));
      return `unknown option${names.length === 1 ? "" : "s"} ${names.join(", ")}`;
    }
    const place = path.length === 0 ? "options" : path.join(".");
    return `${place} = ${describeValue(valueAt(input, issue.path))}: ${issue.message}`;
  });
  return `invalid ${call} options: ${problems.join("; ")}`;
}

/**
 * `input` (undefined as `{}`) parsed by `schema`; for options it refuses,
 * throws what `refuse` makes of the {@link optionsMessage} and zod's error
 * (the package's own error class and bad-input code).
 *
 * @example
 * const parsed = parseOptions(openOptionsSchema, options, "openZarr", (message, cause) =>
 *   new ZarrError("InvalidArgument", message, { path, cause }),
 * );
 */
export function parseOptions<T>(
  schema: OptionsSchema<T>,
  input: unknown,
  call: string,
  refuse: (message: string, cause: unknown) => Error,
): T {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  throw refuse(optionsMessage(call, input, parsed.error.issues), parsed.error);
}

/** The value at `path` in `input`; undefined where the path leaves the objects. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * A value as an option message shows it: JSON where it can (strings
 * quoted), `12n` for a bigint, `undefined`.
 *
 * @example describeValue({ codec: "zstd", level: 2.5 }) // '{"codec":"zstd","level":2.5}'
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
