/** What every contestant of the bench implements: write the dataset, then read it back in four ways. */
import type { OceanData } from "./ocean-data.js";

/**
 * "default": the store's own default encoding; "zstd": zstd level 3 on the
 * values; "shuffle+zstd": the bytes of the values grouped by position in the
 * float first (Lance's byte stream split, `bss: "on"`; numcodecs' shuffle in
 * Zarr), then zstd level 3.
 */
export type Codec = "default" | "zstd" | "shuffle+zstd";

/** The codecs every contestant runs, in table order. */
export const CODECS: readonly Codec[] = ["default", "zstd", "shuffle+zstd"];

/** The zstd level every contestant uses. */
export const ZSTD_LEVEL = 3;

/** What a read returned, to check it against the data: a Float64 sum of the values, and how many chunks. */
export interface ReadSum {
  sum: number;
  chunks: number;
}

/** A dataset as one contestant wrote it, open for reading. */
export interface Written {
  /** Reads everything back (every variable, every chunk) and sums `sst`. */
  scan(): Promise<ReadSum>;
  /** Reads chunk `i` alone, found by its id (or position), and sums its `sst`. */
  readChunk(i: number): Promise<ReadSum>;
  /** Reads the `time` coordinate alone, all of it, and sums it. */
  readTime(): Promise<ReadSum>;
  /** Reads the chunks whose `sst` maximum exceeds `threshold`, found through stored stats, and sums them. */
  readHot(threshold: number): Promise<ReadSum>;
  /** Bytes on disk. */
  bytes(): number;
  /** The fragments of the store's latest version (Lance stores only). */
  fragments?(): Promise<number>;
  /** Merges the store's fragments (lance-nd: `compact`; Lance stores only). */
  compact?(): Promise<void>;
}

/** Writes the prepared dataset under the empty folder `dir` (the timed part of a write). */
export type WriteTo = (dir: string) => Promise<Written>;

/** One contestant: a way to store the dataset on disk. */
export interface Contestant {
  /** Short name in the table, e.g. "zarrita". */
  readonly name: string;
  /**
   * Prepares a write of `data` with `codec` (untimed: what the user's data
   * would already be, e.g. raw lancedb's Arrow batch). With `stats`, the
   * write also stores each chunk's `sst` maximum the way this store's users
   * would (needed by `readHot`).
   */
  prepare(data: OceanData, codec: Codec, stats: boolean): Promise<WriteTo>;
}
