/**
 * Version control of a table (README.md, "Version control"): tags name
 * versions of `main` for good; branches are writable lines of history,
 * forked from a version, that every lance-nd call reads and writes without
 * touching `main`. Merging a branch back is not offered (Lance's diff and
 * cherry-pick are Enterprise-only; the README gives the manual way).
 */
import { LanceNdError } from "../errors.js";
import { sdkCall } from "../lance/sdk-call.js";
import { openTable } from "../lance/table-open.js";
import { checkRefName, listBranches, listTags, refCall, type BranchInfo, type TagInfo } from "../lance/table-refs.js";
import { currentVersion } from "../lance/table-versions.js";
import { checkTable, NdTable } from "../table.js";

export type { BranchInfo, TagInfo };

/**
 * The tags of the table, by name: `{ name, version }`, the version of `main`
 * each names. `checkout(table, name)` reads one.
 *
 * @throws LanceNdError `InvalidInput` for a value that is not an NdTable.
 * @example
 * for (const { name, version } of await tags(table)) console.log(name, version);
 */
export async function tags(table: NdTable): Promise<TagInfo[]> {
  checkTable(table, "tags");
  return listTags(table.lance);
}

/**
 * Names a version of `main` (the latest by default) `name`, for good:
 * cleanup keeps a tagged version, and `checkout(table, name)` reads it.
 * Tags name versions of `main` only: Lance records no branch with a tag
 * (a tag of a branch version would read as the same number on `main`), so
 * `tag` on a branch handle is refused. Returns the version tagged.
 *
 * @throws LanceNdError `InvalidInput` for a bad or existing name, a version
 * that does not exist, or a branch handle; the table is not changed.
 * @example
 * await tag(table, "v1");        // the latest version
 * await tag(table, "raw", 3);
 */
export async function tag(table: NdTable, name: string, version?: number): Promise<number> {
  checkTable(table, "tag");
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

/**
 * Removes the tag `name` (the version stays until cleanup removes it).
 *
 * @throws LanceNdError `InvalidInput` for a tag that does not exist.
 * @example
 * await untag(table, "v1");
 */
export async function untag(table: NdTable, name: string): Promise<void> {
  checkTable(table, "untag");
  if (typeof name !== "string" || !(await listTags(table.lance)).some((t) => t.name === name)) {
    throw new LanceNdError("InvalidInput", `no tag ${JSON.stringify(name)}`, { uri: table.uri });
  }
  const manager = await sdkCall({ uri: table.uri, op: "tags" }, () => table.lance.sdk.tags());
  await refCall(table.lance, `untag "${name}"`, () => manager.delete(name));
}

/**
 * The branches of the table other than `main`, by name: `{ name,
 * parentBranch, parentVersion }` (parentBranch null for `main`).
 *
 * @throws LanceNdError `InvalidInput` for a value that is not an NdTable.
 * @example
 * for (const b of await branches(table)) console.log(b.name, b.parentBranch ?? "main", b.parentVersion);
 */
export async function branches(table: NdTable): Promise<BranchInfo[]> {
  checkTable(table, "branches");
  return listBranches(table.lance);
}

/** Options of {@link branch}. */
export interface BranchOptions {
  /**
   * Where the branch starts: a branch name (`"main"` or another branch, at
   * its latest version) or a version number of the branch `table` is on.
   * Default: the latest version of the branch `table` is on.
   */
  from?: string | number;
}

/**
 * Creates the branch `name` and returns a handle on it. Every lance-nd call
 * on that handle (write, append, NdWriter, scan, dataset, widen, deleteRows,
 * compact, cleanupOldVersions, restore, setColumnDefaults) acts on the
 * branch only; `main` is never changed.
 *
 * @throws LanceNdError `InvalidInput` for a bad or existing name, a `from`
 * branch or version that does not exist; the table is not changed.
 * @example
 * const trial = await branch(table, "reprocess");
 * await append(trial, batches);             // main reads as before
 * const old = await branch(table, "from-v3", { from: 3 });
 */
export async function branch(table: NdTable, name: string, options: BranchOptions = {}): Promise<NdTable> {
  checkTable(table, "branch");
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
  const lance = await openTable(table.uri, {
    branch: name,
    ...(table.lance.storageOptions === undefined ? {} : { storageOptions: table.lance.storageOptions }),
  });
  return NdTable.fromLance(lance);
}

/**
 * Removes the branch `name` and the versions only it uses (after the next
 * cleanup of its parent). `main` cannot be removed.
 *
 * @throws LanceNdError `InvalidInput` for `main` or a branch that does not exist.
 * @example
 * await deleteBranch(table, "reprocess");
 */
export async function deleteBranch(table: NdTable, name: string): Promise<void> {
  checkTable(table, "deleteBranch");
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
