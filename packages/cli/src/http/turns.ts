/**
 * Turns for the local servers' reads (CLI README, "view" and "serve"): at
 * most a fixed number run at once and the others wait, so a server's memory
 * follows that number, not the number of requests its clients send together.
 */

/** A queue of reads of which at most `limit` run at once, in the order they came. */
export class Turns {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** Turns for at most `limit` reads at once. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Runs `read` when a turn is free; its result or error as it gives them. */
  async run<T>(read: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await read();
    } finally {
      // The turn passes to the next reader as it is, or is given back.
      const next = this.#waiting.shift();
      if (next === undefined) this.#running--;
      else next();
    }
  }
}
