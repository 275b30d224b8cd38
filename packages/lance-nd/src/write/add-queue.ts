/**
 * The rows of a writer on their way to Lance: a buffer of rows not yet in an
 * add, and the adds in flight, each bounded in memory (README.md, "NdWriter
 * sizing").
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { type AddSizer, batchBytes } from "./add-sizing.js";

/** Rows taken from the buffer for one add. */
export interface AddGroup {
  rows: NdRecordBatch[];
  /** Their bytes in memory. */
  bytes: number;
}

/** A writer's buffered rows and its adds in flight. */
export class AddQueue {
  readonly sizer: AddSizer;
  #pending: NdRecordBatch[] = [];
  #pendingBytes = 0;
  readonly #inflight = new Set<Promise<void>>();
  #inflightBytes = 0;

  /** A queue whose adds are sized by `sizer`, at most `sizer.parallelism` in flight. */
  constructor(sizer: AddSizer) {
    this.sizer = sizer;
  }

  /** Bytes of rows (in memory) buffered or in adds that have not finished. */
  get bufferedBytes(): number {
    return this.#pendingBytes + this.#inflightBytes;
  }

  /** True while an add runs. */
  get busy(): boolean {
    return this.#inflight.size > 0;
  }

  /** True when `row` may join the buffered rows in one add: the buffer is empty, or the add stays within an add's bytes. */
  fits(row: NdRecordBatch): boolean {
    return this.#pending.length === 0 || this.#pendingBytes + batchBytes(row) <= this.sizer.addBytes();
  }

  /** Buffers a row; true when the buffer holds an add's worth. */
  push(row: NdRecordBatch): boolean {
    this.#pending.push(row);
    this.#pendingBytes += batchBytes(row);
    return this.#pendingBytes >= this.sizer.addBytes();
  }

  /** Replaces the buffered rows by `change(rows)` (e.g. cast to a widened type). */
  rewritePending(change: (rows: NdRecordBatch[]) => NdRecordBatch[]): void {
    this.#pending = change(this.#pending);
    this.#pendingBytes = this.#pending.reduce((n, b) => n + batchBytes(b), 0);
  }

  /** Takes every buffered row, or undefined when there is none. */
  take(): AddGroup | undefined {
    if (this.#pending.length === 0) return undefined;
    const group = { rows: this.#pending, bytes: this.#pendingBytes };
    this.#pending = [];
    this.#pendingBytes = 0;
    return group;
  }

  /** Drops the buffered rows. */
  clear(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  /** Waits until an add of `bytes` may start: fewer adds than the parallelism in flight, within their memory bound. */
  async waitForSlot(bytes: number): Promise<void> {
    while (
      this.busy &&
      (this.#inflight.size >= this.sizer.parallelism || this.#inflightBytes + bytes > this.sizer.inflightBytes)
    ) {
      await Promise.race(this.#inflight);
    }
  }

  /** Starts `add` for a group of `bytes`; it runs in flight until it settles (its errors are the caller's to record). */
  start(add: () => Promise<unknown>, bytes: number): void {
    this.#inflightBytes += bytes;
    const done: Promise<void> = add()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.#inflight.delete(done);
        this.#inflightBytes -= bytes;
      });
    this.#inflight.add(done);
  }

  /** Waits while buffered plus in-flight rows exceed the buffer bound and an add can free some. */
  async waitForRoom(): Promise<void> {
    while (this.busy && this.bufferedBytes > this.sizer.bufferBytes()) await Promise.race(this.#inflight);
  }

  /** Waits for every add in flight. */
  async settle(): Promise<void> {
    while (this.busy) await Promise.race(this.#inflight);
  }
}
