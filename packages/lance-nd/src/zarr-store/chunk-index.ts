/**
 * Chunk keys of the Zarr store (README "Serving as Zarr"): the index a key
 * names, checked against the array's chunk grid, so that no key outside it
 * reads a row.
 */
import { chunkKey } from "@lance-nd/zarr/encoding";

/**
 * The chunk index in a chunk key (`0.1` in v2, `c/0/1` in v3; `0` / `c`
 * for a scalar) of an array with `chunkCounts` chunks along its dims,
 * `undefined` when the key is not one of its chunks: another rank, an index
 * past the grid, anything but plain decimals (`01`, `-1`, `1e3`).
 */
export function chunkIndex(key: string, chunkCounts: readonly number[], version: 2 | 3): number[] | undefined {
  const rank = chunkCounts.length;
  const parts = version === 2 ? (rank === 0 ? (key === "0" ? [] : undefined) : key.split(".")) : v3Parts(key);
  if (parts === undefined || parts.length !== rank) return undefined;
  const index: number[] = [];
  for (const [d, part] of parts.entries()) {
    if (!/^(0|[1-9]\d{0,14})$/.test(part)) return undefined;
    const i = Number(part);
    if (i >= chunkCounts[d]!) return undefined;
    index.push(i);
  }
  return chunkKey(version, index) === key ? index : undefined;
}

function v3Parts(key: string): string[] | undefined {
  if (key === "c") return [];
  return key.startsWith("c/") ? key.slice(2).split("/") : undefined;
}
