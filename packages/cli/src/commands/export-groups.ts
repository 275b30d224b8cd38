/**
 * `lance-nd export --groups` (CLI README, "Groups"): the datasets an import
 * made of one file's groups (ids `<id>` and `<id>/<group path>`, see
 * group-datasets.ts) written back as one tree: a netCDF-4 file with the
 * same groups, or a Zarr store with a group per dataset.
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { sqlStringLiteral } from "@lance-nd/format";
import { scan } from "lance-nd";
import type { NdTable } from "lance-nd";
import { CliError } from "../errors.js";

/** The filter that selects the rows of the dataset `id`. */
export function idFilter(id: string): string {
  return `__global_attrs__.id = ${sqlStringLiteral(id)}`;
}

/**
 * The tree of datasets `where` selects, as group path -> id (`""` the root,
 * parents first): when the rows hold one dataset, it and every dataset of
 * the table whose id is `<its id>/...`; when they hold several, they must
 * be one such tree (one id, and the others under it). `InvalidArgument`
 * naming the ids otherwise, or when no row matches.
 */
export async function groupTree(table: NdTable, where: string | undefined): Promise<Map<string, string>> {
  const selected = await idsOf(table, where);
  const filter = where === undefined ? "the table" : `--where ${where}`;
  if (selected.length === 0) throw new CliError("InvalidArgument", `no row matches ${filter}`);
  const root = selected.reduce((shortest, id) => (id.length < shortest.length ? id : shortest));
  const outside = selected.filter((id) => id !== root && !id.startsWith(`${root}/`));
  if (outside.length > 0) {
    const shown = [root, ...outside].slice(0, 5).join(", ");
    throw new CliError(
      "InvalidArgument",
      `--groups: the rows of ${filter} are not one tree of groups (ids ${shown}): a file's groups have the ids <id>/<group path>`,
    );
  }
  const members =
    selected.length > 1
      ? selected
      : (await idsOf(table, undefined)).filter((id) => id === root || id.startsWith(`${root}/`));
  const depth = (id: string): number => id.split("/").length;
  return new Map(
    members
      .sort((a, b) => depth(a) - depth(b) || members.indexOf(a) - members.indexOf(b))
      .map((id) => [id === root ? "" : id.slice(root.length + 1), id] as const),
  );
}

/** The distinct ids of the rows `where` selects, in table order (global attributes only). */
async function idsOf(table: NdTable, where: string | undefined): Promise<string[]> {
  let rows = scan(table).project([]);
  if (where !== undefined) rows = rows.filter(where);
  const ids = new Set<string>();
  for await (const row of rows) ids.add(String(row.globalAttr("id") ?? ""));
  return [...ids];
}

/**
 * Reads each dataset of `tree` with `read` (given its filter) into a map of
 * group path -> dataset for `writeNetcdfGroups`, and counts the rows read.
 */
export async function readGroupTree(
  tree: ReadonlyMap<string, string>,
  read: (where: string) => Promise<{ dataset: NdRecordBatch; rows: number }>,
): Promise<{ groups: Map<string, NdRecordBatch>; rows: number }> {
  const groups = new Map<string, NdRecordBatch>();
  let rows = 0;
  for (const [group, id] of tree) {
    const one = await read(idFilter(id));
    groups.set(group, one.dataset);
    rows += one.rows;
  }
  return { groups, rows };
}
