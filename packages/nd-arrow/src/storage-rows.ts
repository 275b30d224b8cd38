/**
 * Rows cut on a source's storage grid (README, "For the lance-nd packages";
 * the CLI README, "Rows of an import", says why these sizes): the storage
 * blocks (HDF5 chunks, netCDF-3 records, Zarr chunks or shards) of the
 * largest variable, neighbours merged along the slowest dims up to
 * {@link ROW_BYTES}. A region read costs the bytes of the rows it touches
 * (packages/lance-nd/SDK-NOTES.md, section 26), so rows are small and
 * follow how the source was laid out for reading. A block larger than that
 * stays one row up to {@link MAX_BLOCK_ROW_BYTES} (cutting it would decode it
 * once per row); contiguous storage and larger blocks are cut along their
 * slowest dims.
 */
import type { Dim } from "./ndarray.js";

/**
 * The most bytes (uncompressed) of the largest variable a default row
 * holds: 1 MiB. A Lance take costs about what a scan costs per byte and
 * next to nothing per call (SDK-NOTES.md, section 26: one 1 MiB row 7 ms,
 * 16 of them 7 ms each), so a smaller row wastes less of a region read and
 * costs a whole read nothing; a time step of a 0.25° global grid (1 MB of
 * Float32) is one row.
 */
export const ROW_BYTES = 2 ** 20;

/**
 * The most bytes a row that is one storage block may hold (8 MiB, the size
 * the CLI's import memory is sized for: its README, "Memory of an import"); a larger
 * block is cut into rows of at most this size.
 */
export const MAX_BLOCK_ROW_BYTES = 8 * 2 ** 20;

/**
 * The most bytes a row that is one storage block may hold under a row
 * `budget`: eight budgets, at most {@link MAX_BLOCK_ROW_BYTES} (8 MiB for
 * the default 1 MiB), so a smaller budget cuts blocks too.
 */
export function maxBlockRowBytes(budget: number): number {
  return Math.max(budget, Math.min(MAX_BLOCK_ROW_BYTES, 8 * budget));
}

/** What the row shape is planned from: a variable's dims, bytes per value and storage block. */
export interface StoredVariable {
  readonly dims: readonly Dim[];
  /** Bytes per value (an estimate for variable-width values). */
  readonly itemBytes: number;
  /**
   * The storage block, one size per dim: HDF5 chunks, Zarr shards or chunks.
   * null for contiguous storage (netCDF-3, an unchunked HDF5 dataset): a
   * slab of one index along the first dim (one record) is the block.
   */
  readonly block: readonly number[] | null;
}

/** The largest of `variables` (by values times bytes per value) with at least one dim, if any. */
export function largestVariable<V extends StoredVariable>(variables: readonly V[]): V | undefined {
  let best: V | undefined;
  let bestBytes = -1;
  for (const v of variables) {
    if (v.dims.length === 0) continue;
    const bytes = v.dims.reduce((n, d) => n * d.size, v.itemBytes);
    if (bytes > bestBytes) [best, bestBytes] = [v, bytes];
  }
  return best;
}

/**
 * The row size along each dim of `variable`: its storage block, merged with
 * neighbours along the slowest dims while a row stays within `budget`
 * bytes; a block over `budget` stays whole up to `blockRowBytes`
 * ({@link maxBlockRowBytes} unless given) and is cut along its slowest dims beyond; contiguous storage is cut into
 * slabs within `budget`. A merged row is a whole number of blocks along each
 * dim, so rows sit on the storage grid.
 *
 * @example storageRowSizes({ dims: [time 120, lat 361, lon 720], itemBytes: 4, block: [1, 361, 720] }) // { time: 1, lat: 361, lon: 720 }
 */
export function storageRowSizes(
  variable: StoredVariable,
  budget = ROW_BYTES,
  blockRowBytes = maxBlockRowBytes(budget),
): Record<string, number> {
  const sizes = variable.dims.map((d) => Math.max(d.size, 1));
  const block = sizes.map((size, i) =>
    Math.min(size, Math.max(1, variable.block === null ? (i === 0 ? 1 : size) : variable.block[i]!)),
  );
  let bytes = block.reduce((n, b) => n * b, variable.itemBytes);
  const cap = variable.block === null ? budget : Math.max(budget, blockRowBytes);
  if (bytes > budget) {
    for (let i = 0; i < block.length && bytes > cap; i++) {
      const per = bytes / block[i]!;
      block[i] = Math.max(1, Math.min(block[i]!, Math.floor(cap / per)));
      bytes = per * block[i]!;
    }
  } else {
    for (let i = 0; i < block.length; i++) {
      const factor = Math.floor(budget / bytes);
      if (factor <= 1) break;
      const grown = Math.min(sizes[i]!, block[i]! * factor);
      bytes = (bytes / block[i]!) * grown;
      block[i] = grown;
    }
  }
  return Object.fromEntries(variable.dims.map((d, i) => [d.name, block[i]!]));
}
