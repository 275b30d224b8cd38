/** Buffered writes to a sink that wait when the sink asks to (backpressure). */
import type { Sink } from "../io.js";

/** A sink that can say "wait" (Node's writable streams: `write` returns false, then `drain`). */
interface DrainingSink extends Sink {
  once(event: "drain" | "close" | "error", listener: () => void): unknown;
  off?(event: "drain" | "close" | "error", listener: () => void): unknown;
}

/**
 * Collects text into chunks of about `chunkChars` and writes each chunk to
 * the sink; when the sink's buffer is full (`write` returned false) the next
 * write waits for `drain`, so a slow reader (a pipe, `less`) holds the
 * writer back instead of the process buffering the whole output.
 *
 * @example
 * const out = new SinkWriter(process.stdout);
 * await out.text("[");
 * await out.flush();
 */
export class SinkWriter {
  readonly #sink: Sink;
  readonly #chunkChars: number;
  #parts: string[] = [];
  #chars = 0;
  #blocked: Promise<void> | undefined;

  constructor(sink: Sink, chunkChars = 1 << 16) {
    this.#sink = sink;
    this.#chunkChars = chunkChars;
  }

  /** Adds text; writes a chunk when enough text is buffered. */
  async text(text: string): Promise<void> {
    this.#parts.push(text);
    this.#chars += text.length;
    if (this.#chars >= this.#chunkChars) await this.flush();
  }

  /** Writes bytes (after the buffered text). */
  async bytes(bytes: Uint8Array): Promise<void> {
    await this.flush();
    await this.#write(bytes);
  }

  /** Writes the buffered text now. */
  async flush(): Promise<void> {
    if (this.#chars === 0) return;
    const chunk = this.#parts.join("");
    this.#parts = [];
    this.#chars = 0;
    await this.#write(chunk);
  }

  async #write(chunk: string | Uint8Array): Promise<void> {
    if (this.#blocked !== undefined) await this.#blocked;
    const accepted = this.#sink.write(chunk);
    const sink = this.#sink as Partial<DrainingSink>;
    if (accepted !== false || typeof sink.once !== "function") return;
    this.#blocked = new Promise<void>((resolve) => {
      const done = (): void => {
        for (const event of ["drain", "close", "error"] as const) sink.off?.(event, done);
        this.#blocked = undefined;
        resolve();
      };
      for (const event of ["drain", "close", "error"] as const) sink.once!(event, done);
    });
  }
}
