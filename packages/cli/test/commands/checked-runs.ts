/**
 * Runs of the command line a test needs to succeed, checked where they
 * happen: exit 0 and nothing on stderr ({@link quiet}), or nothing there but
 * warnings ({@link succeeded}); each gives the run's stdout. And runs it
 * needs refused: exit 1 and one line ({@link expectRefusals}).
 */
import { expect } from "vitest";
import { type CliRun, cli } from "./harness.js";

/** `run`'s stdout, after checking that it printed nothing on stderr and exited 0; `what` labels the checks. */
export function quiet(run: CliRun, what?: string): string {
  expect(run.stderr, what).toBe("");
  expect(run.code, what).toBe(0);
  return run.stdout;
}

/** `run`'s stdout, after checking that it printed no stderr line but warnings and exited 0; `what` labels the checks. */
export function succeeded(run: CliRun, what?: string): string {
  expect(
    run.stderr.split("\n").filter((line) => line !== "" && !line.includes("warning:")),
    what,
  ).toEqual([]);
  expect(run.code, what).toBe(0);
  return run.stdout;
}

/** Runs `lance-nd ...args` in `cwd` ({@link cli}) and returns its stdout, checked by {@link quiet}. */
export function cliQuiet(args: readonly string[], cwd?: string): string {
  return quiet(cli(args, cwd), args.join(" "));
}

/** Runs `lance-nd ...args` ({@link cli}) and returns its stdout, checked by {@link succeeded}. */
export function cliSucceeds(args: readonly string[]): string {
  return succeeded(cli(args), args.join(" "));
}

/** A command line a test expects refused: what it tries, its arguments, and what its one stderr line says. */
export type Refusal = [what: string, args: string[], message: RegExp];

/** Runs each of `refusals` in `cwd` and checks that it exits 1 with one stderr line matching its message. */
export function expectRefusals(refusals: readonly Refusal[], cwd?: string): void {
  for (const [what, args, message] of refusals) {
    const run = cli(args, cwd);
    expect({ what, code: run.code, lines: run.stderr.trim().split("\n").length }).toEqual({
      what,
      code: 1,
      lines: 1,
    });
    expect(run.stderr, what).toMatch(message);
  }
}
