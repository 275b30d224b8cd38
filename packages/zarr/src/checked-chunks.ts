/**
 * Every decoded chunk is checked against its shape (README "Reading"): a
 * chunk file whose bytes decode to more or fewer values than the chunk
 * holds (a truncated raw chunk, garbage a codec let through) is
 * `ReadFailed` naming the array and the chunk key, as zarr-python refuses
 * it, instead of zarrita's copy leaving the missing cells at zero.
 */
import * as zarr from "zarrita";
import type { ArrayNode } from "./metadata.js";
import { DamagedBloscChunk } from "./blosc-check.js";
import { RangePastEnd } from "./shard-ranges.js";
import { ZarrError } from "./zarr-error.js";

/** Where a checked array lives: the store path and the array's node. */
interface CheckedPlace {
  readonly path: string;
  readonly node: ArrayNode;
}

/** `array` whose `getChunk` (used by `zarr.get` and the aligned read) fails on a chunk of the wrong length. */
export const withCheckedChunks = zarr.defineArrayExtension((array, place: CheckedPlace) => ({
  async getChunk(coords: number[], options?: Parameters<typeof array.getChunk>[1]) {
    const chunk = await array.getChunk(coords, options).catch((err: unknown) => {
      const damage = damageIn(err);
      if (damage === undefined) throw err;
      const what = damage instanceof RangePastEnd ? "a damaged shard index" : "a truncated or corrupt chunk";
      throw new ZarrError("ReadFailed", `chunk ${chunkName(place.node, coords)}: ${damage.message} (${what})`, {
        path: place.path,
        variable: place.node.name,
        cause: damage,
      });
    });
    const expected = array.chunks.reduce((n, size) => n * size, 1);
    const length = (chunk.data as { length: number }).length;
    if (length !== expected) {
      throw new ZarrError(
        "ReadFailed",
        `chunk ${chunkName(place.node, coords)} decodes to ${length} values where its shape [${array.chunks.join(", ")}] holds ${expected} (a truncated or corrupt chunk)`,
        { path: place.path, variable: place.node.name },
      );
    }
    return chunk;
  },
}));

/** The damage found in a chunk's bytes that `err` is, or was caused by (zarrita wraps a codec's error). */
function damageIn(err: unknown): RangePastEnd | DamagedBloscChunk | undefined {
  for (let e = err; e instanceof Error; e = e.cause) {
    if (e instanceof RangePastEnd || e instanceof DamagedBloscChunk) return e;
  }
  return undefined;
}

/** The chunk's key in the store (`"sst/c/0/1"`, `"sst/0.1"`), or, for an inner chunk of a shard, that and the shard's key. */
function chunkName(node: ArrayNode, coords: readonly number[]): string {
  const metadata = node.zarrita;
  const sharded = node.shardShape !== undefined;
  const outer = sharded ? coords.map((c, d) => Math.floor((c * node.chunkShape[d]!) / node.shardShape![d]!)) : coords;
  const { name, configuration } = metadata.chunk_key_encoding as {
    name: string;
    configuration?: { separator?: string };
  };
  const key =
    name === "v2"
      ? outer.join(configuration?.separator ?? ".") || "0"
      : ["c", ...outer].join(configuration?.separator ?? "/");
  const file = `"${node.key === "" ? key : `${node.key}/${key}`}"`;
  return sharded ? `[${coords.join(", ")}] of shard ${file}` : file;
}
