/**
 * The chunk grid a dataset is served on (README "Serving as Zarr"): the
 * dataset's row grid when its rows lie on one regular grid (one chunk is
 * one row); otherwise a regular grid whose chunks each meet at most
 * `maxChunkRows` rows: start from the most common row size along each dim
 * and halve the largest chunk side until no chunk meets more rows (or the
 * chunk is one cell along the dims of the variables that meet more).
 */
import type { Dim } from "@lance-nd/nd-arrow";
import type { PlannedRow } from "../dataset/plan-rows.js";

/** The chunk size along each grid dim (grid order), sizes of at least 1. */
export function chunkGrid(
  grid: readonly Dim[],
  rows: readonly Pick<PlannedRow, "start" | "size">[],
  dimSets: readonly (readonly number[])[],
  maxChunkRows: number,
): number[] {
  const chunk = grid.map((d, k) =>
    Math.max(1, Math.min(mostCommon(rows.map((row) => row.size[k]!)) ?? d.size, d.size)),
  );
  for (;;) {
    const crowded = dimSets.filter((dims) => crowdedChunk(rows, chunk, dims, maxChunkRows));
    const along = [...new Set(crowded.flat())].filter((k) => chunk[k]! > 1);
    if (along.length === 0) return chunk;
    const widest = along.reduce((a, b) => (chunk[b]! > chunk[a]! ? b : a));
    chunk[widest] = Math.ceil(chunk[widest]! / 2);
  }
}

/**
 * True when a chunk of the grid `chunk` meets more than `maxChunkRows`
 * rows, counting rows by their extent along `dims` (the grid dims of a
 * variable: rows that differ only along other dims hold the same cells of
 * it and are read once; rows that start at the same place but end at
 * different ones hold different cells). Stops at the first such chunk.
 */
function crowdedChunk(
  rows: readonly Pick<PlannedRow, "start" | "size">[],
  chunk: readonly number[],
  dims: readonly number[],
  maxChunkRows: number,
): boolean {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const row of rows) {
    const key = dims.map((k) => `${row.start[k]}+${row.size[k]}`).join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    const first = dims.map((k) => Math.floor(row.start[k]! / chunk[k]!));
    const last = dims.map((k) => Math.floor((row.start[k]! + Math.max(row.size[k]!, 1) - 1) / chunk[k]!));
    for (const index of indexRange(first, last)) {
      const count = (counts.get(index) ?? 0) + 1;
      if (count > maxChunkRows) return true;
      counts.set(index, count);
    }
  }
  return false;
}

/** The chunk indices from `first` to `last` (inclusive) as keys. */
function* indexRange(first: readonly number[], last: readonly number[]): Generator<string> {
  const index = [...first];
  for (;;) {
    yield index.join(",");
    let d = index.length - 1;
    for (; d >= 0; d--) {
      if (++index[d]! <= last[d]!) break;
      index[d] = first[d]!;
    }
    if (d < 0) return;
  }
}

/** The value that occurs most (the first of equals), `undefined` for none. */
function mostCommon(values: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  let best: number | undefined;
  for (const value of values) {
    const count = (counts.get(value) ?? 0) + 1;
    counts.set(value, count);
    if (best === undefined || count > counts.get(best)!) best = value;
  }
  return best;
}
