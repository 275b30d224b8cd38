/**
 * Version control of a table (README.md, "Version control"): tags name
 * versions of `main` for good; branches are writable lines of history,
 * forked from a version, that every lance-nd call reads and writes without
 * touching `main`. Merging a branch back is not offered (Lance's diff and
 * cherry-pick are Enterprise-only; the README gives the manual way). The
 * bodies of `NdTable`'s methods `tag`, `untag`, `createBranch` and `deleteBranch`.
 */
import { LanceNdError } from "../errors.js";
import { sdkCall } from "../lance/sdk-call.js";
import { type LanceTable, openTable } from "../lance/table-open.js";
import { checkRefName, listBranches, listTags, refCall, type BranchInfo, type TagInfo } from "../lance/table-refs.js";
import { currentVersion } from "../lance/table-versions.js";
import type { NdTable } from "../table.js";

export type { BranchInfo, TagInfo };

/** Names `version` (the latest by default) of `main` `name` (`NdTable.tag`); returns the version tagged. */
export async function tagVersion(table: NdTable, name: string, version?: number): Promise<number> {
  checkRefName("tag", name, table.uri);
  if (table.branch !== null) {
    throw new LanceNdError(
      "InvalidInput",
      `tag "${name}" on branch "${table.branch}": tags name versions of main (Lance records no branch with a tag); open the table without a branch`,
      { uri: table.uri },
    );
  }
  if (version !== undefined && !(Number.isSafeInteger(version) && version >= 1)) {
    throw new LanceNdError(
      "InvalidInput",
      `tag "${name}": bad version ${String(version)}: expected a version number (from 1)`,
      { uri: table.uri },
    );
  }
  if ((await listTags(table.lance)).some((t) => t.name === name)) {
    throw new LanceNdError("InvalidInput", `tag "${name}" already exists (untag it first to move it)`, {
      uri: table.uri,
    });
  }
  const tagged = version ?? (await currentVersion(table.lance));
  const manager = await sdkCall({ uri: table.uri, op: "tags" }, () => table.lance.sdk.tags());
  await refCall(table.lance, `tag "${name}" of version ${tagged}`, () => manager.create(name, tagged));
  return tagged;
}

/** Removes the tag `name` of `table` (`NdTable.untag`). */
export async function removeTag(table: NdTable, name: string): Promise<void> {
  if (typeof name !== "string" || !(await listTags(table.lance)).some((t) => t.name === name)) {
    throw new LanceNdError("InvalidInput", `no tag ${JSON.stringify(name)}`, { uri: table.uri });
  }
  const manager = await sdkCall({ uri: table.uri, op: "tags" }, () => table.lance.sdk.tags());
  await refCall(table.lance, `untag "${name}"`, () => manager.delete(name));
}

/** Options of `table.createBranch`. */
export interface BranchOptions {
  /**
   * Where the branch starts: a branch name (`"main"` or another branch, at
   * its latest version) or a version number of the branch `table` is on.
   * Default: the latest version of the branch `table` is on.
   */
  from?: string | number;
}

/** Creates the branch `name` of `table` (`NdTable.createBranch`); returns a Lance handle on it. */
export async function forkBranch(table: NdTable, name: string, options: BranchOptions): Promise<LanceTable> {
  checkRefName("branch", name, table.uri);
  const from = options.from ?? table.branch ?? "main";
  const existing = await listBranches(table.lance);
  if (existing.some((b) => b.name === name))
    throw new LanceNdError("InvalidInput", `branch "${name}" already exists`, { uri: table.uri });
  const [fromBranch, fromVersion] = typeof from === "number" ? [table.branch ?? "main", from] : [from, undefined];
  if (typeof from === "number" && !(Number.isSafeInteger(from) && from >= 1)) {
    throw new LanceNdError(
      "InvalidInput",
      `branch "${name}": bad from version ${String(from)}: expected a version number (from 1) or a branch name`,
      { uri: table.uri },
    );
  }
  if (typeof fromBranch !== "string" || (fromBranch !== "main" && !existing.some((b) => b.name === fromBranch))) {
    throw new LanceNdError("InvalidInput", `branch "${name}": no branch ${JSON.stringify(fromBranch)} to start from`, {
      uri: table.uri,
    });
  }
  const manager = await sdkCall({ uri: table.uri, op: "branches" }, () => table.lance.sdk.branches());
  const where =
    fromVersion === undefined ? `branch "${fromBranch}"` : `version ${fromVersion} of branch "${fromBranch}"`;
  const created = await refCall(table.lance, `branch "${name}" from ${where}`, () =>
    manager.create(name, fromBranch, fromVersion),
  );
  created.close();
  // A handle of the table's own connection (strong read consistency), as `open` gives.
  return openTable(table.uri, {
    branch: name,
    ...(table.lance.storageOptions === undefined ? {} : { storageOptions: table.lance.storageOptions }),
  });
}

/** Removes the branch `name` of `table` (`NdTable.deleteBranch`). */
export async function removeBranch(table: NdTable, name: string): Promise<void> {
  if (name === "main")
    throw new LanceNdError("InvalidInput", "deleteBranch: main cannot be removed", { uri: table.uri });
  if (typeof name !== "string" || !(await listBranches(table.lance)).some((b) => b.name === name)) {
    throw new LanceNdError("InvalidInput", `no branch ${JSON.stringify(name)}`, { uri: table.uri });
  }
  if (table.branch === name)
    throw new LanceNdError(
      "InvalidInput",
      `deleteBranch "${name}": the handle is on that branch; use a handle on another branch`,
      { uri: table.uri },
    );
  const manager = await sdkCall({ uri: table.uri, op: "branches" }, () => table.lance.sdk.branches());
  await refCall(table.lance, `deleteBranch "${name}"`, () => manager.delete(name));
}
