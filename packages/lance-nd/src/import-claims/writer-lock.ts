/**
 * The per-id writer lock (README.md, "Guarantees"): one import writes the
 * rows of an id of a branch at a time. The lock is a Lance tag
 * `lance-nd-lock-<hash of branch and id>`; Lance refuses to create a tag
 * that exists ("Ref conflict"), which makes taking it one atomic step where
 * the store creates files atomically (a local disk; an object store with
 * conditional PUT). Its holder is the import mark (import-mark.ts) that
 * names the id: a lock no running import holds is stale.
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { LanceNdError } from "../errors.js";
import { sdkCall } from "../lance/sdk-call.js";
import type { LanceTable } from "../lance/table-open.js";
import { listTags, refCall } from "../lance/table-refs.js";
import { type ImportMark, importMarks, importRunning } from "./import-mark.js";

/** The prefix of every lock tag. */
const LOCK_TAG_PREFIX = "lance-nd-lock-";
/** How often a waiting import looks at the lock again. */
const POLL_MS = 200;
/** How long a lock without a running holder is waited for before it is called stale (its holder may be ending). */
const STALE_GRACE_MS = 2_000;

/** The lock tag of `id` on `branch` (null: `main`). */
export function lockTagName(branch: string | null, id: string): string {
  const hash = createHash("sha256")
    .update(`${branch ?? ""}\0${id}`)
    .digest("hex");
  return `${LOCK_TAG_PREFIX}${hash.slice(0, 32)}`;
}

/** A lock tag found on a table, with its holder. */
export interface WriterLock {
  /** The tag name. */
  tag: string;
  /** The version of `main` it names (the latest when it was taken). */
  version: number;
  /** The import mark that names its id, or null. */
  holder: ImportMark | null;
  /** The id it locks, as the holder's mark names it (null without a holder). */
  id: string | null;
  /** No running import holds it: the holder's mark is gone or its process does not run. */
  stale: boolean;
}

/** The lock tags of the table (a handle of `main`), each with its holder. */
export async function writerLocks(main: LanceTable): Promise<WriterLock[]> {
  const locks = (await listTags(main)).filter((t) => t.name.startsWith(LOCK_TAG_PREFIX));
  if (locks.length === 0) return [];
  const holders = new Map<string, { mark: ImportMark; id: string }>();
  for (const mark of await importMarks(main)) {
    if (mark.taggedVersion === null || mark.info === null) continue;
    for (const id of mark.info.ids) holders.set(lockTagName(mark.info.branch, id), { mark, id });
  }
  return locks.map(({ name, version }) => {
    const held = holders.get(name);
    return {
      tag: name,
      version,
      holder: held?.mark ?? null,
      id: held?.id ?? null,
      stale: held === undefined || !importRunning(held.mark.info!),
    };
  });
}

/** How long {@link lockIds} waits for a lock another import holds. */
export interface LockWait {
  /** Milliseconds; 0 fails at once. */
  timeoutMs: number;
  /** Stops the wait: the locks taken are released and the signal's reason is thrown. */
  signal?: AbortSignal;
}

/**
 * Takes the lock of every one of `ids` on `branch` for the import `mark`
 * (whose info names them), in a fixed order (two imports of overlapping
 * ids never wait for each other in a circle). A lock another running
 * import holds is waited for up to `wait.timeoutMs`; a stale one fails
 * after a short grace. On failure the locks taken are released. Returns
 * the lock tags taken.
 *
 * @throws LanceNdError `CommitConflict` naming the id and the holder (its
 * mark, host and process), or, for a stale lock, the repair that breaks it.
 */
export async function lockIds(
  main: LanceTable,
  branch: string | null,
  ids: readonly string[],
  version: number,
  wait: LockWait,
): Promise<string[]> {
  const manager = await sdkCall({ uri: main.uri, op: "tags" }, () => main.sdk.tags());
  const taken: string[] = [];
  try {
    for (const id of [...new Set(ids)].sort()) {
      const tag = lockTagName(branch, id);
      wait.signal?.throwIfAborted();
      const started = Date.now();
      let staleSince: number | undefined;
      for (;;) {
        const created = await refCall(main, `lock of id "${id}"`, () => manager.create(tag, version)).then(
          () => true,
          (err: LanceNdError) => {
            if (/Ref conflict/i.test(String(err.cause))) return false;
            throw err;
          },
        );
        if (created) break;
        const lock = (await writerLocks(main)).find((l) => l.tag === tag);
        if (lock === undefined) continue; // released between the create and the list
        staleSince = lock.stale ? (staleSince ?? Date.now()) : undefined;
        const stale = staleSince !== undefined && Date.now() - staleSince >= Math.min(STALE_GRACE_MS, wait.timeoutMs);
        if (stale || Date.now() - started >= wait.timeoutMs)
          throw idHeldError(main.uri, id, lock.holder, lock.stale, wait);
        wait.signal?.throwIfAborted();
        await sleep(POLL_MS);
      }
      taken.push(tag);
    }
    return taken;
  } catch (err) {
    await unlockIds(main, taken);
    throw err;
  }
}

/**
 * Releases lock tags. A tag already gone is skipped, also one that goes
 * between the list and its delete (another import that took it after a
 * lost create and stepped back, or a second release).
 */
export async function unlockIds(main: LanceTable, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  const present = new Set((await listTags(main)).map((t) => t.name));
  const manager = await sdkCall({ uri: main.uri, op: "tags" }, () => main.sdk.tags());
  for (const tag of tags) {
    if (!present.has(tag)) continue;
    await refCall(main, "unlock", () => manager.delete(tag)).catch((err: LanceNdError) => {
      // Lance says "Ref not found" when the tag is gone, "Not found: <path>" when its file went during the delete.
      if (!/not found/i.test(String(err.cause))) throw err;
    });
  }
}

/**
 * `CommitConflict` for an id another import writes: who (its mark, mode,
 * host and process), or, when that import does not run any more, the
 * repair that undoes it.
 */
export function idHeldError(
  uri: string,
  id: string,
  holder: ImportMark | null,
  stale: boolean,
  wait: LockWait,
): LanceNdError {
  const info = holder?.info;
  const who =
    info === undefined || info === null
      ? "an import that ended without releasing it"
      : `import ${holder!.uuid} (${info.mode}, process ${info.pid} on ${info.host})`;
  const why = stale
    ? `held by ${who}, which does not run any more: run lance-nd check --repair to undo it`
    : `held by ${who}${wait.timeoutMs > 0 ? ` after waiting ${Math.round(wait.timeoutMs / 1000)} s` : ""}`;
  return new LanceNdError("CommitConflict", `id "${id}" is being written by another import: ${why}`, { uri });
}
