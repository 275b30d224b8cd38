/**
 * SIGINT and SIGTERM during an import (CLI README, "Interrupting an
 * import"): the first one stops the import before its next add, and the
 * import rolls back what it committed; a second one exits at once, leaving
 * the import's mark for `lance-nd check --repair`.
 */
import { RollbackIncompleteError } from "lance-nd";
import { CliError, isCliError } from "../errors.js";
import type { Io } from "../io.js";
import { println } from "../io.js";

/** The signals an import stops on, with the exit code of each (128 + the signal number). */
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof EXIT_CODES;

/** The error an import stops with once it was interrupted: thrown where it checks, it makes the write roll back. */
class ImportInterrupted extends CliError {
  /** The signal. */
  readonly signal: StopSignal;

  constructor(signal: StopSignal) {
    super("CommandFailed", `interrupted by ${signal}`);
    this.signal = signal;
  }
}

/** Listens for SIGINT and SIGTERM while an import runs. */
export class ImportInterrupt {
  readonly #controller = new AbortController();
  readonly #onSignal = (signal: NodeJS.Signals) => this.#received(signal as StopSignal);

  /** Starts listening (the default handlers, which end the process, are replaced). */
  constructor() {
    for (const signal of Object.keys(EXIT_CODES)) process.on(signal, this.#onSignal);
  }

  /** Aborted on the first signal, with {@link ImportInterrupted} as its reason (e.g. for a wait for a lock). */
  get abortSignal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The first signal received, or undefined. */
  get signal(): StopSignal | undefined {
    return this.#controller.signal.aborted ? (this.#controller.signal.reason as ImportInterrupted).signal : undefined;
  }

  /** The exit code of the first signal received. */
  get exitCode(): number {
    return EXIT_CODES[this.signal!];
  }

  /** Throws {@link ImportInterrupted} after a signal. */
  throwIfInterrupted(): void {
    this.#controller.signal.throwIfAborted();
  }

  /** Stops listening. */
  stop(): void {
    for (const signal of Object.keys(EXIT_CODES)) process.off(signal, this.#onSignal);
  }

  #received(signal: StopSignal): void {
    if (this.#controller.signal.aborted) {
      process.stderr.write(
        `lance-nd: a second signal (${signal}): exiting now; lance-nd check --repair undoes the import\n`,
      );
      process.exit(EXIT_CODES[signal]);
    }
    this.#controller.abort(new ImportInterrupted(signal));
  }
}

/**
 * Runs an import (`run`) that SIGINT or SIGTERM stops: once
 * it rolled back, one line says so and the process exits 130 or 143.
 */
export async function interruptible(
  io: Io,
  uri: string,
  mode: "create" | "append" | "replace" | "overwrite",
  run: (interrupt: ImportInterrupt) => Promise<void>,
): Promise<void> {
  const interrupt = new ImportInterrupt();
  try {
    await run(interrupt);
  } catch (err) {
    if (interrupt.signal === undefined) throw err;
    const cause = isCliError(err, "CommandFailed") && err.cause !== undefined ? err.cause : err;
    const kept =
      cause instanceof RollbackIncompleteError
        ? `but ${cause.message}`
        : mode === "create"
          ? "no table was left"
          : mode === "overwrite"
            ? "the version before it was restored"
            : "the rows it had written were removed";
    println(io.stderr, `lance-nd: import into ${uri} interrupted by ${interrupt.signal}: stopped, ${kept}`);
    process.exit(interrupt.exitCode);
  } finally {
    interrupt.stop();
  }
  if (interrupt.signal !== undefined) {
    println(io.stderr, `lance-nd: ${interrupt.signal} came after the import into ${uri} completed: its rows stay`);
    process.exit(interrupt.exitCode);
  }
}
