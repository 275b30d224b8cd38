/**
 * Runs of the command line a test needs to succeed, checked where they
 * happen: exit 0 and nothing on stderr ({@link quiet}), or nothing there but
 * warnings ({@link succeeded}); each gives the run's stdout.
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
