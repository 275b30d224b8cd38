/**
 * Where the netCDF-4 writer defines each dim of a tree of groups (README,
 * "Groups"): a dim a group uses is its parent's when the nearest group
 * above it that has a dim of that name has it at the same size (or
 * unlimited), as netCDF-C resolves a dim name in the group, then in its
 * parents; otherwise the group defines its own (a dim of another size
 * shadows the parent's). netCDF-4 numbers the dims of a file once, so the
 * ids follow the groups, parents first.
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { fileDims, unlimitedOf } from "./stored.js";

/** One group to write: its path (`""` the root, `"g1/g2"`) and its dataset. */
export interface GroupToWrite {
  readonly path: string;
  readonly batch: NdRecordBatch;
}

/** A dim a group defines. */
interface OwnDim {
  readonly name: string;
  /** The longest use of it below (an unlimited dim is as long as its longest variable). */
  size: number;
  readonly growable: boolean;
  /** The file-wide netCDF-4 dim id (`_Netcdf4Dimid`). */
  dimid: number;
}

/** The dims of a tree of groups: which each defines, and where each group finds the dims it uses. */
export interface GroupDims {
  /** Each group's own dims, in the group's dim order. */
  readonly own: ReadonlyMap<string, readonly OwnDim[]>;
  /** The HDF5 path of the scale of `dim` as group `group` sees it (`/dim`, `/g1/dim`). */
  scalePath(group: string, dim: string): string;
}

/**
 * Plans the dims of `groups`, given parents first. `unlimited` gives each
 * group's unlimited dims (the option, else its `_Unlimited`).
 */
export function planGroupDims(
  groups: readonly GroupToWrite[],
  unlimited: (batch: NdRecordBatch) => ReadonlySet<string> = (batch) => new Set(unlimitedOf(batch)),
): GroupDims {
  const byPath = new Map(groups.map((g) => [g.path, g]));
  const dimsOf = new Map(groups.map((g) => [g.path, new Map(fileDims(g.batch).map((d) => [d.name, d.size]))]));
  const unlimitedIn = new Map(groups.map((g) => [g.path, unlimited(g.batch)]));
  const owners = new Map<string, string>();
  const own = new Map<string, OwnDim[]>(groups.map((g) => [g.path, []]));

  const ownerOf = (group: string, name: string, size: number): string => {
    const key = `${group}\0${name}`;
    const known = owners.get(key);
    if (known !== undefined) return known;
    let owner = group;
    for (const parent of ancestors(group)) {
      const theirs = dimsOf.get(parent)?.get(name);
      if (theirs === undefined || !byPath.has(parent)) continue;
      if (theirs === size || unlimitedIn.get(parent)!.has(name)) owner = ownerOf(parent, name, theirs);
      break;
    }
    owners.set(key, owner);
    return owner;
  };

  for (const g of groups) {
    for (const [name, size] of dimsOf.get(g.path)!) {
      const owner = ownerOf(g.path, name, size);
      const defined = own.get(owner)!.find((d) => d.name === name);
      if (defined === undefined)
        own.get(owner)!.push({ name, size, growable: unlimitedIn.get(g.path)!.has(name), dimid: 0 });
      else if (defined.growable) defined.size = Math.max(defined.size, size);
    }
  }
  let dimid = 0;
  for (const g of groups) for (const d of own.get(g.path)!) d.dimid = dimid++;
  return {
    own,
    scalePath: (group, dim) => {
      const owner = owners.get(`${group}\0${dim}`) ?? group;
      return owner === "" ? `/${dim}` : `/${owner}/${dim}`;
    },
  };
}

/** The groups above `group`, nearest first: `"a/b/c"` -> `"a/b"`, `"a"`, `""`. */
function ancestors(group: string): string[] {
  if (group === "") return [];
  const parts = group.split("/");
  return parts.map((_, i) => parts.slice(0, parts.length - 1 - i).join("/"));
}
