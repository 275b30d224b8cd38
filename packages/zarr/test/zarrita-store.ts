/**
 * A v3 store written by zarrita itself (not xarray): a group and one int32
 * array `counts` over dims (x, y), for tests of stores other writers made.
 */
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";

/** What {@link writeCountsStore} writes. */
export interface CountsStore {
  /** The group's attributes. */
  attributes: Record<string, unknown>;
  /** The shape of `counts`: [x, y]. */
  shape: [number, number];
  /** The rows (along x) of a chunk; a chunk holds every y. */
  chunkRows: number;
  /** The value at flat (row-major) index i is `i * step`. */
  step: number;
}

/** Writes, with zarrita, a store at `path`: a group of `attributes` holding the int32 array `counts` of {@link CountsStore}. */
export async function writeCountsStore(
  path: string,
  { attributes, shape, chunkRows, step }: CountsStore,
): Promise<void> {
  const root = zarr.root(new FileSystemStore(path));
  await zarr.create(root, { attributes });
  const counts = await zarr.create(root.resolve("counts"), {
    shape,
    chunkShape: [chunkRows, shape[1]],
    dtype: "int32",
    dimensionNames: ["x", "y"],
  });
  await zarr.set(counts, null, {
    data: Int32Array.from({ length: shape[0] * shape[1] }, (_, i) => i * step),
    shape,
    stride: [shape[1], 1],
  });
}
