/**
 * The import mark (README.md, "Guarantees"): an import that has not ended
 * is a Lance tag `lance-nd-import-<uuid>` on the version it started from,
 * with tags `lance-nd-import-<uuid>.<n>.<part>` holding what it does (mode,
 * branch, start version, ids, host and process) as base64url JSON cut into
 * parts a tag name can hold. The parts are written before the mark and
 * removed after it, so a mark always has its parts. Tags are not commits:
 * they are removed at the end, unlike schema metadata keys (SDK-NOTES.md,
 * section 21), and a tagged version survives cleanup.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { sdkCall } from "../lance/sdk-call.js";
import type { LanceTable } from "../lance/table-open.js";
import { listTags, refCall } from "../lance/table-refs.js";

/** The prefix of every import mark tag. */
const IMPORT_TAG_PREFIX = "lance-nd-import-";
/** Characters of the payload per tag: the tag file name stays well under 255 bytes. */
const PART_CHARS = 150;
const MARK = /^lance-nd-import-([0-9a-f-]{36})$/;
const PART = /^lance-nd-import-([0-9a-f-]{36})\.(\d+)\.([A-Za-z0-9_-]+)$/;

/** How an import writes its table (the CLI's `--mode`). */
export type ImportMode = "create" | "append" | "replace" | "overwrite";

/** What an import mark holds. */
export interface ImportInfo {
  /** The import's mode. */
  mode: ImportMode;
  /** The branch it writes; null for `main`. */
  branch: string | null;
  /** The version of that branch it started from (a create: its first version). */
  version: number;
  /** The ids (`__global_attrs__.id`) of the rows it writes. */
  ids: string[];
  /** The host name of the process that runs it. */
  host: string;
  /** That process's id. */
  pid: number;
}

/** One import mark found on a table. */
export interface ImportMark {
  /** The mark's uuid. */
  uuid: string;
  /** The version of `main` the mark tag names; null when only parts are left (the import ended while removing them). */
  taggedVersion: number | null;
  /** What the import does; null when parts are missing. */
  info: ImportInfo | null;
  /** Every tag of the mark (the mark and its parts). */
  tags: string[];
}

/**
 * Marks an import on `main` (a handle of `main`): its parts, then the mark
 * tag on `taggedVersion` of `main`. Returns the mark.
 *
 * @throws LanceNdError `InvalidInput` when Lance refuses a tag.
 */
export async function markImport(
  main: LanceTable,
  info: Omit<ImportInfo, "host" | "pid">,
  taggedVersion: number,
): Promise<ImportMark> {
  const uuid = randomUUID();
  const full: ImportInfo = { ...info, host: hostname(), pid: process.pid };
  const payload = Buffer.from(JSON.stringify(full)).toString("base64url");
  const tags: string[] = [];
  const manager = await sdkCall({ uri: main.uri, op: "tags" }, () => main.sdk.tags());
  for (let n = 0; n * PART_CHARS < payload.length; n++) {
    const name = `${IMPORT_TAG_PREFIX}${uuid}.${n}.${payload.slice(n * PART_CHARS, (n + 1) * PART_CHARS)}`;
    await refCall(main, "import mark", () => manager.create(name, taggedVersion));
    tags.push(name);
  }
  const mark = `${IMPORT_TAG_PREFIX}${uuid}`;
  await refCall(main, "import mark", () => manager.create(mark, taggedVersion));
  return { uuid, taggedVersion, info: full, tags: [mark, ...tags] };
}

/** Removes the tags of `mark`, the mark tag first; a tag already gone is skipped. */
export async function unmarkImport(main: LanceTable, mark: ImportMark): Promise<void> {
  const present = new Set((await listTags(main)).map((t) => t.name));
  const manager = await sdkCall({ uri: main.uri, op: "tags" }, () => main.sdk.tags());
  const ordered = [...mark.tags].sort((a, b) => Number(PART.test(a)) - Number(PART.test(b)));
  for (const name of ordered) {
    if (present.has(name)) await refCall(main, "import mark", () => manager.delete(name));
  }
}

/** The import marks of the table (a handle of `main`), by uuid. */
export async function importMarks(main: LanceTable): Promise<ImportMark[]> {
  const byUuid = new Map<string, { tagged: number | null; parts: Map<number, string>; tags: string[] }>();
  const entry = (uuid: string) => {
    let found = byUuid.get(uuid);
    if (found === undefined) {
      found = { tagged: null, parts: new Map(), tags: [] };
      byUuid.set(uuid, found);
    }
    return found;
  };
  for (const { name, version } of await listTags(main)) {
    const mark = MARK.exec(name);
    if (mark !== null) {
      const found = entry(mark[1]!);
      found.tagged = version;
      found.tags.push(name);
      continue;
    }
    const part = PART.exec(name);
    if (part === null) continue;
    const found = entry(part[1]!);
    found.parts.set(Number(part[2]), part[3]!);
    found.tags.push(name);
  }
  return [...byUuid].map(([uuid, { tagged, parts, tags }]) => ({
    uuid,
    taggedVersion: tagged,
    info: parseInfo(parts),
    tags,
  }));
}

/** The info of a mark from its parts; null when a part is missing or the text is not an import's. */
function parseInfo(parts: ReadonlyMap<number, string>): ImportInfo | null {
  const text: string[] = [];
  for (let n = 0; n < parts.size; n++) {
    const part = parts.get(n);
    if (part === undefined) return null;
    text.push(part);
  }
  try {
    const info = JSON.parse(Buffer.from(text.join(""), "base64url").toString("utf8")) as ImportInfo;
    const valid =
      ["create", "append", "replace", "overwrite"].includes(info.mode) &&
      Number.isSafeInteger(info.version) &&
      Array.isArray(info.ids) &&
      info.ids.every((id) => typeof id === "string") &&
      typeof info.host === "string" &&
      Number.isSafeInteger(info.pid);
    return valid ? info : null;
  } catch {
    return null;
  }
}

/**
 * True when the process that runs the import may still run: it is on
 * another host (which this process cannot ask), or a process with its id
 * runs on this one (a zombie, dead but not yet reaped, does not: Linux's
 * `/proc/<pid>/stat` says so).
 */
export function importRunning(info: ImportInfo): boolean {
  if (info.host !== hostname()) return true;
  if (info.pid === process.pid) return true;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  return processState(info.pid) !== "Z";
}

/** The state letter of a process in `/proc/<pid>/stat` (R, S, Z, ...); undefined without /proc. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2];
  } catch {
    return undefined;
  }
}
