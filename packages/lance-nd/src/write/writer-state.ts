/**
 * The life of a writer (README.md, "NdWriter"): open, then finished or
 * aborted; and its first storage failure, after which every call throws
 * `WriterFailed` with that failure as `cause`.
 */
import { isLanceNdError, LanceNdError } from "../errors.js";

/** Where a writer is in its life. */
export type WriterPhase = "open" | "finished" | "aborted";

/** A writer's phase and first failure. */
export class WriterState {
  readonly #uri: string;
  #phase: WriterPhase = "open";
  #failure: LanceNdError | undefined;

  /** The state of a new writer of the table at `uri`. */
  constructor(uri: string) {
    this.#uri = uri;
  }

  /** The writer's phase. */
  get phase(): WriterPhase {
    return this.#phase;
  }

  /** The first storage failure, if any. */
  get failure(): LanceNdError | undefined {
    return this.#failure;
  }

  /** Moves the writer to `phase`. */
  end(phase: "finished" | "aborted"): void {
    this.#phase = phase;
  }

  /** Runs a storage step; its first failure fails the writer (the `WriterFailed` error is thrown). */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw this.fail(err);
    }
  }

  /** Records the writer's first failure; returns the `WriterFailed` error to throw. */
  fail(err: unknown): LanceNdError {
    this.#failure ??= isLanceNdError(err)
      ? err
      : new LanceNdError("WriterFailed", `a Lance write failed: ${err instanceof Error ? err.message : String(err)}`, {
          uri: this.#uri,
          cause: err,
        });
    return this.#failedError();
  }

  /** @throws LanceNdError `WriterFailed` after a failure. */
  throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failedError();
  }

  /** @throws LanceNdError `WriterFailed` after a failure; `InvalidInput` after `finish` or `abort`. */
  checkUsable(): void {
    this.throwIfFailed();
    if (this.#phase !== "open") {
      throw new LanceNdError("InvalidInput", `the writer is ${this.#phase === "finished" ? "finished" : "aborted"}`, {
        uri: this.#uri,
      });
    }
  }

  #failedError(): LanceNdError {
    return new LanceNdError("WriterFailed", `the writer failed earlier: ${this.#failure?.message ?? ""}`, {
      uri: this.#uri,
      cause: this.#failure,
    });
  }
}
