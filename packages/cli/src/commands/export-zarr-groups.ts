/**
 * `lance-nd export --groups --format zarr` (CLI README, "Groups"): a tree
 * of datasets (export-groups.ts) as one Zarr store, each dataset the group
 * at its path, written by `export --format zarr` one after another, parents
 * first. A v2 store's root `.zmetadata` then holds every group's metadata,
 * as zarr-python's `consolidate_metadata` makes it, so that
 * `xr.open_zarr(out, group=...)` finds each group through it.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeZarr } from "@lance-nd/zarr";
import { scan } from "lance-nd";
import type { NdTable } from "lance-nd";
import { sourceRow } from "lance-nd/internal";
import { idFilter } from "./export-groups.js";
import type { ExportSummary } from "./export-zarr.js";
import { zarrCall } from "./zarr-errors.js";

/** Where one group of the tree is written, and the filter of its rows. */
export interface ZarrGroupTarget {
  readonly out: string;
  readonly where: string;
}

/**
 * Writes `tree` (group path -> id, parents first) into a new Zarr store at
 * `out` with `exportOne` for each dataset of variables; a dataset without
 * any (a group of attributes and subgroups alone) is its group's
 * attributes. Returns the root's summary with the groups written. A failed
 * write removes what it wrote (the export writes a store that did not
 * exist).
 */
export async function exportZarrGroups(
  table: NdTable,
  out: string,
  tree: ReadonlyMap<string, string>,
  zarrVersion: 2 | 3,
  exportOne: (target: ZarrGroupTarget) => Promise<ExportSummary>,
): Promise<ExportSummary> {
  let root: ExportSummary | undefined;
  let started = false;
  try {
    for (const [group, id] of tree) {
      const target = { out: group === "" ? out : join(out, group), where: idFilter(id) };
      started = true;
      const [first] = await scan(table).filter(target.where).limit(1).toArray();
      const written =
        first !== undefined && first.names().length > 0
          ? await exportOne(target)
          : await writeAttributesOnly(first, target, zarrVersion);
      if (group === "") root = written;
    }
    if (zarrVersion === 2)
      await consolidate(
        out,
        [...tree.keys()].filter((group) => group !== ""),
      );
  } catch (err) {
    if (started) await rm(out, { recursive: true, force: true });
    throw err;
  }
  return { ...root!, groups: [...tree.keys()].filter((group) => group !== "") };
}

/** A group of attributes alone: its `row`'s global attributes as the source had them. */
async function writeAttributesOnly(
  row: NdRecordBatch | undefined,
  target: ZarrGroupTarget,
  version: 2 | 3,
): Promise<ExportSummary> {
  const stored = sourceRow(row!);
  await zarrCall(() => writeZarr(target.out, stored, { version }));
  return {
    file: target.out,
    format: "zarr",
    rows: 1,
    variables: [],
    grid: [],
    globalAttrs: [...stored.globalAttrs.keys()],
  };
}

/** Adds each group's consolidated metadata (its `.zmetadata`), under its path, to the root's. */
async function consolidate(out: string, groups: readonly string[]): Promise<void> {
  const rootFile = join(out, ".zmetadata");
  const root = JSON.parse(await readFile(rootFile, "utf8")) as { metadata: Record<string, unknown> };
  for (const group of groups) {
    const own = JSON.parse(await readFile(join(out, group, ".zmetadata"), "utf8")) as {
      metadata: Record<string, unknown>;
    };
    for (const [key, doc] of Object.entries(own.metadata)) root.metadata[`${group}/${key}`] = doc;
  }
  await writeFile(rootFile, `${JSON.stringify(root, null, 2)}\n`);
}
