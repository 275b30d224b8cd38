/**
 * Errors as the command line reports them: one line
 * `lance-nd: <what> (<why>)`, the stack only with `--debug`.
 */
import { CliError, isCliError } from "./errors.js";

/** Error classes of the lance-nd packages: their messages are written for users. */
const USER_ERRORS = new Set([
  "CliError",
  "LanceNdError",
  "NdArrowError",
  "FormatError",
  "CastingError",
  "StatsError",
  "NetcdfError",
  "CfError",
]);

/**
 * Runs `fn`; an error becomes a `CommandFailed` CliError whose message is
 * `what` (e.g. `cannot import into data/t.lance`) and whose cause is the error.
 */
export async function failing<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (cause) {
    if (isCliError(cause, "CommandFailed")) throw cause;
    throw new CliError("CommandFailed", what, { cause });
  }
}

/** True for an error a user can fix (a typed error of lance-nd), false for a bug. */
export function isUserError(err: unknown): boolean {
  return err instanceof Error && USER_ERRORS.has(err.name) && "code" in err;
}

/**
 * The report of a failed command: one line, or with `debug` the line and
 * each error's stack down the cause chain.
 */
export function errorReport(err: unknown, debug: boolean): string {
  const what = isCliError(err, "CommandFailed") ? err.message : undefined;
  const reason = isCliError(err, "CommandFailed") ? err.cause : err;
  const why = oneLine(reason instanceof Error ? reason.message : String(reason));
  const bug = !isUserError(reason) ? " [unexpected error; run with --debug for the stack]" : "";
  const line = what === undefined ? `lance-nd: ${why}${bug}` : `lance-nd: ${what} (${why})${bug}`;
  if (!debug) return line;
  const stacks: string[] = [];
  for (
    let e: unknown = reason, depth = 0;
    e !== undefined && depth < 8;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    stacks.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
  }
  return [line.replace(bug, ""), ...stacks.map((s, i) => (i === 0 ? s : `caused by: ${s}`))].join("\n");
}

/** A message as one line: line breaks and runs of spaces become one space. */
export function oneLine(message: string): string {
  return message
    .replace(/\s*\n\s*/g, "; ")
    .replace(/\s{2,}/g, " ")
    .trim();
}
