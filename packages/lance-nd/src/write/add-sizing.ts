/**
 * How many rows go into one Lance add (README.md, "NdWriter sizing"): about
 * `targetFragmentBytes` on disk, learned from the disk/memory ratio of the
 * writer's own adds, and capped in memory.
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { LanceTable } from "../lance/table-open.js";
import { tableBytes } from "../lance/table-read.js";
import { dataBytes } from "../lance/data-bytes.js";

const MiB = 1024 * 1024;
/**
 * At most this many bytes of rows (in memory) in one Lance add, whatever the
 * disk/memory ratio: lancedb holds about 4.7x an add in memory while it
 * writes it (measured; README, "NdWriter sizing"), and a writer must stay
 * under 1 GiB above its baseline while it writes 1 GiB (bench/writer-memory.ts).
 */
const MAX_ADD_MEMORY_BYTES = 64 * MiB;
/** At most this many bytes of rows in Lance adds at the same time (README, "NdWriter sizing"). */
const MAX_INFLIGHT_MEMORY_BYTES = 64 * MiB;
/** At most this many bytes of rows buffered plus in flight (the seed's 8x the target, capped for memory). */
const MAX_BUFFER_MEMORY_BYTES = 128 * MiB;

/** The size of a writer's adds, learned from the bytes its adds took on disk. */
export class AddSizer {
  readonly #targetFragmentBytes: number;
  #diskBytesBefore = 0;
  #memoryBytesWritten = 0;
  #ratio = 1;

  readonly #parallelism: number;
  readonly #inflightBytes: number;
  readonly #bufferBytes: number;

  /**
   * A sizer for adds of about `targetFragmentBytes` on disk, `parallelism`
   * of them in flight at once; the first add assumes 1 disk byte per memory
   * byte. `memoryBudgetBytes`, when given, lowers the bounds of rows in
   * flight and buffered to it (never raises them).
   */
  constructor(targetFragmentBytes: number, parallelism: number, memoryBudgetBytes?: number) {
    this.#targetFragmentBytes = targetFragmentBytes;
    this.#parallelism = parallelism;
    const budget = memoryBudgetBytes ?? Number.POSITIVE_INFINITY;
    this.#inflightBytes = Math.min(MAX_INFLIGHT_MEMORY_BYTES, budget);
    this.#bufferBytes = Math.min(MAX_BUFFER_MEMORY_BYTES, budget);
  }

  /** How many adds may be in flight at once. */
  get parallelism(): number {
    return this.#parallelism;
  }

  /** At most this many bytes of rows in the adds in flight together ({@link MAX_INFLIGHT_MEMORY_BYTES} or the budget). */
  get inflightBytes(): number {
    return this.#inflightBytes;
  }

  /** Counts the table's bytes on disk from here on (an append writer: the table's bytes before its first add). */
  async startAt(table: LanceTable): Promise<void> {
    this.#diskBytesBefore = await tableBytes(table);
  }

  /**
   * Memory bytes of rows per add: the target on disk over the learned
   * disk/memory ratio, capped so that the adds in flight at once share
   * {@link inflightBytes} (4 adds: 16 MiB each).
   */
  addBytes(): number {
    const cap = Math.min(MAX_ADD_MEMORY_BYTES, this.#inflightBytes / this.#parallelism);
    return Math.max(1, Math.min(cap, this.#targetFragmentBytes / this.#ratio));
  }

  /** Memory bytes of rows buffered plus in flight before `write` waits. */
  bufferBytes(): number {
    return Math.min(8 * this.addBytes(), this.#bufferBytes);
  }

  /** Learns the disk/memory ratio after an add of `memoryBytes` of rows to `table`. */
  async learn(table: LanceTable, memoryBytes: number): Promise<void> {
    this.#memoryBytesWritten += memoryBytes;
    const disk = (await tableBytes(table)) - this.#diskBytesBefore;
    if (disk > 0 && this.#memoryBytesWritten > 0)
      this.#ratio = Math.min(64, Math.max(1 / 64, disk / this.#memoryBytesWritten));
  }
}

/** The bytes of a row's values in memory (values, offsets and validity of each array). */
export function batchBytes(batch: NdRecordBatch): number {
  let bytes = 0;
  for (const [, array] of batch.arrays()) for (const data of array.values.data) bytes += dataBytes(data);
  return bytes;
}
