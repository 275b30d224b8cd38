/**
 * One run of the command line: parse the arguments, run the command, map
 * the outcome to an exit code.
 */
import { CommanderError } from "commander";
import type { Io } from "./io.js";
import { println } from "./io.js";
import { createProgram } from "./program.js";
import { errorReport } from "./report.js";

/** Exit codes of `lance-nd`. */
const EXIT = {
  /** The command did what it was asked. */
  ok: 0,
  /** A user error: a missing file, a bad filter, an unknown variable, ... One line on stderr says what and why. */
  failed: 1,
  /** A usage error: an unknown command or option, a missing or malformed argument. */
  usage: 2,
} as const;

/** Commander outcomes that are not errors (help or version printed on request). */
const NOT_ERRORS = new Set(["commander.helpDisplayed", "commander.version"]);

/**
 * Runs `lance-nd` with `argv` (the arguments after the program name) and
 * returns the exit code ({@link EXIT}).
 *
 * @example
 * process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
 */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const program = await createProgram(io, argv);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed its message (or the help) already; `help <command>` asked for it.
      return NOT_ERRORS.has(err.code) || (err.code === "commander.help" && err.exitCode === 0) ? EXIT.ok : EXIT.usage;
    }
    println(io.stderr, errorReport(err, argv.includes("--debug")));
    return EXIT.failed;
  }
}
