/**
 * The groups of a Zarr store (README, "Groups"): what an import of the
 * whole tree opens, one group at a time, with `openZarr(path, { group })`.
 */
import { readNodes } from "./metadata.js";
import { openStoreFiles, storeName } from "./store-files.js";

/**
 * Every group nested in the Zarr store at `path`, at any depth, by its path
 * (`"surface"`, `"model/run1"`), parents first; none for a store without
 * groups or of a single array. Reads metadata only. Errors as `openZarr`:
 * `NotFound` (no store), `InvalidStore` (metadata that is not Zarr).
 *
 * @example
 * for (const group of await zarrGroups("nested.zarr")) console.log(group, (await openZarr("nested.zarr", { group })).variables.length);
 */
export async function zarrGroups(path: string): Promise<readonly string[]> {
  const files = await openStoreFiles(path);
  const { groups } = await readNodes(files, path, storeName(path));
  return groups;
}
