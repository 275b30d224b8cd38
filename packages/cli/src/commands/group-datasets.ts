/**
 * The groups of an import's inputs as datasets of their own (CLI README,
 * "Groups"): a netCDF-4 file or a Zarr store with groups is its root group
 * (the file's id) and each group below it, id `<file id>/<group path>`, as
 * `xr.open_dataset(f, group=...)` reads the group: its variables, its
 * attributes as the global ones, the dims it inherits from its parents.
 * `export` writes such a set of ids back as one tree (export-groups.ts).
 */
import { openNetcdf } from "@lance-nd/netcdf";
import { openZarr, zarrGroups } from "@lance-nd/zarr";
import { isUrl } from "./import-fetch.js";
import { isZarrStore } from "./import-source.js";
import { zarrCall } from "./zarr-errors.js";

/** One dataset of an import: the file or store, the group in it (`undefined`: the file as a whole), its id. */
export interface GroupDataset {
  readonly path: string;
  readonly group: string | undefined;
  readonly id: string;
  /** A group's dims, and those of every group of its file (a file without groups: none). */
  readonly dims?: { readonly own: ReadonlySet<string>; readonly file: ReadonlySet<string> };
}

/**
 * The datasets of `paths` (with their `ids`): a file or store without
 * groups is one dataset; one with groups is its root (`group` `""`) and
 * each group, parents first, id `<id>/<group path>`. A source at a URL is
 * its root group only. The reader errors of a file that does not open pass
 * through.
 */
export async function groupDatasets(paths: readonly string[], ids: readonly string[]): Promise<GroupDataset[]> {
  const datasets: GroupDataset[] = [];
  for (const [i, path] of paths.entries()) {
    const id = ids[i]!;
    const groups = isUrl(path) ? [] : await groupsOf(path);
    if (groups.length === 0) {
      datasets.push({ path, group: undefined, id });
      continue;
    }
    const tree = ["", ...groups];
    const own = await Promise.all(tree.map(async (group) => new Set(await dimsOf(path, group))));
    const file = new Set(own.flatMap((dims) => [...dims]));
    datasets.push(
      ...tree.map((group, g) => ({
        path,
        group,
        id: group === "" ? id : `${id}/${group}`,
        dims: { own: own[g]!, file },
      })),
    );
  }
  return datasets;
}

/**
 * The `--chunk` sizes of one dataset: a group is cut along the dims it has
 * of those named (a dim of another group leaves it whole); a dim no group
 * of the file has stays, for the import to refuse naming it.
 */
export function chunkOf(
  dataset: GroupDataset,
  chunk: ReadonlyMap<string, number> | undefined,
): ReadonlyMap<string, number> | undefined {
  const { dims } = dataset;
  if (chunk === undefined || dims === undefined) return chunk;
  return new Map([...chunk].filter(([dim]) => dims.own.has(dim) || !dims.file.has(dim)));
}

/** The dims of one group of a Zarr store or a netCDF-4 file. */
async function dimsOf(path: string, group: string): Promise<string[]> {
  if (isZarrStore(path)) return zarrCall(async () => (await openZarr(path, { group })).dims.map((d) => d.name));
  const file = await openNetcdf(path, { group });
  try {
    return file.dims.map((d) => d.name);
  } finally {
    await file.close();
  }
}

/** The groups below the root of a Zarr store or a netCDF-4 file (none for a classic file). */
async function groupsOf(path: string): Promise<readonly string[]> {
  if (isZarrStore(path)) return zarrCall(() => zarrGroups(path));
  const file = await openNetcdf(path, { group: "" });
  try {
    return file.groups;
  } finally {
    await file.close();
  }
}
