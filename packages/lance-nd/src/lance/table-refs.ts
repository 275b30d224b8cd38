/**
 * Lance's named references of a table (README.md, "Version control"): tags
 * (a name for one version) and branches (a writable line of history forked
 * from a version), through lancedb's `tags()` and `branches()` managers.
 * Names are checked here before Lance sees them: Lance answers a duplicate
 * branch with an internal error, and some bad names with a path error.
 */
import { LanceNdError, cleanSdkMessage } from "../errors.js";
import { sdkCall } from "./sdk-call.js";
import { openTable, type LanceTable, type OpenTableOptions } from "./table-open.js";

/** A tag: a name for one version of `main`. */
export interface TagInfo {
  /** The tag name. */
  name: string;
  /** The version of `main` it names. */
  version: number;
}

/** A branch: a line of history forked from a version of another branch. */
export interface BranchInfo {
  /** The branch name. */
  name: string;
  /** The branch it was forked from; null for `main`. */
  parentBranch: string | null;
  /** The version of the parent branch it was forked from. */
  parentVersion: number;
}

// Lance's rule for ref names ("Ref characters must be either alphanumeric, '.', '-' or '_'").
const REF_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Checks a tag or branch name against Lance's rule (letters, digits, '.',
 * '-', '_'; not starting with '.'); `main` is never a new branch name.
 *
 * @throws LanceNdError `InvalidInput` naming the name and the rule.
 */
export function checkRefName(kind: "tag" | "branch", name: unknown, uri: string): string {
  if (typeof name !== "string" || !REF_NAME.test(name)) {
    throw new LanceNdError(
      "InvalidInput",
      `bad ${kind} name ${JSON.stringify(name)}: expected letters, digits, '.', '-' or '_' (not starting with '.')`,
      { uri },
    );
  }
  if (kind === "branch" && name === "main")
    throw new LanceNdError("InvalidInput", 'bad branch name "main": main is the table\'s own line of history', { uri });
  return name;
}

/** How many times a listing of tags is tried while other processes delete tags under it. */
const TAG_LIST_ATTEMPTS = 20;

/**
 * The tags of the table, by name. Lance lists the tag files, then reads
 * each: a tag another process deletes in between (an import's mark or
 * lock, README.md "Guarantees") fails the listing with "Not found" of that
 * file, so the listing is tried again, at most {@link TAG_LIST_ATTEMPTS} times.
 */
export async function listTags(table: LanceTable): Promise<TagInfo[]> {
  const tags = await sdkCall({ uri: table.uri, op: "tags" }, async () => {
    const manager = await table.sdk.tags();
    for (let attempt = 1; ; attempt++) {
      try {
        return await manager.list();
      } catch (err) {
        if (attempt >= TAG_LIST_ATTEMPTS || !tagDeletedWhileListed(err)) throw err;
      }
    }
  });
  return Object.entries(tags)
    .map(([name, tag]) => ({ name, version: tag.version }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** True for Lance's "Not found" of a tag file: the tag was deleted after the listing found it. */
function tagDeletedWhileListed(err: unknown): boolean {
  return /Not found: \S*_refs\/tags\/[^\s/]+\.json/.test(err instanceof Error ? err.message : String(err));
}

/** The branches of the table (without `main`), by name. */
export async function listBranches(table: LanceTable): Promise<BranchInfo[]> {
  const branches = await sdkCall({ uri: table.uri, op: "branches" }, async () => (await table.sdk.branches()).list());
  return Object.entries(branches)
    .map(([name, branch]) => ({ name, parentBranch: branch.parentBranch ?? null, parentVersion: branch.parentVersion }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Runs one tag or branch call of the SDK; its refusal (a version or ref
 * that does not exist, a name Lance does not take) becomes `InvalidInput`
 * starting with `what`, the SDK error as `cause`.
 */
export async function refCall<T>(table: LanceTable, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const reason = cleanSdkMessage(err instanceof Error ? err.message : String(err))
      .replace(/^Ref \w+ error: /, "")
      .replace(/^Version not found error: /, "");
    throw new LanceNdError("InvalidInput", `${what}: ${reason}`, { uri: table.uri, cause: err });
  }
}

/**
 * Opens the table at `uri` (on `options.branch` when set). A branch that
 * does not exist is `InvalidInput` naming it and the branches there are
 * (Lance reports it as a missing table).
 *
 * @throws LanceNdError `TableNotFound` when there is no table; `InvalidInput` for an unknown branch.
 */
export async function openTableOnBranch(uri: string, options: OpenTableOptions): Promise<LanceTable> {
  try {
    return await openTable(uri, options);
  } catch (err) {
    if (options.branch === undefined) throw err;
    const { branch, ...storage } = options;
    const main = await openTable(uri, storage);
    try {
      const names = (await listBranches(main)).map((b) => b.name);
      if (names.includes(branch)) throw err;
      throw new LanceNdError(
        "InvalidInput",
        `no branch "${branch}" (branches: ${names.length === 0 ? "none" : names.join(", ")})`,
        { uri, cause: err },
      );
    } finally {
      main.sdk.close();
    }
  }
}
