/**
 * The record of complete imports (README.md, "Version control"): one
 * import makes a version per Lance add, so the versions between its start
 * and its last commit hold some of its rows only. When an import of `main`
 * completes, a Lance tag `lance-nd-imported-<start>-<end>` names its last
 * version `end` and says where it started: the versions after `start` and
 * before `end` are half-imports. Tags are no commits and cost no read; a
 * cleanup removes the tags of the versions it removes (cleanup keeps a
 * tagged version), so the record lasts as long as the versions it is about.
 */
import { sdkCall } from "../lance/sdk-call.js";
import type { LanceTable } from "../lance/table-open.js";
import { refCall, type TagInfo } from "../lance/table-refs.js";

/** The prefix of the tags that record complete imports. */
const IMPORTED_TAG_PREFIX = "lance-nd-imported-";
const IMPORTED = /^lance-nd-imported-(\d+)-(\d+)$/;

/** One complete import of `main`: the version it started from and its last version. */
export interface ImportRange {
  /** The version it started from (0 for the import that created the table). */
  readonly start: number;
  /** Its last version: every row it wrote. */
  readonly end: number;
}

/** Where a half-import version sits: the complete versions around it. */
export interface HalfImport {
  /** The nearest version before it that is no half-import, if cleanup left one. */
  readonly completeBefore: number | null;
  /** The nearest version after it that is no half-import, if there is one yet. */
  readonly completeAfter: number | null;
}

/** True for a tag that records a complete import (hidden from `table.tags()`). */
export function isImportRecordTag(name: string): boolean {
  return IMPORTED.test(name);
}

/** The complete imports the tags of `main` record. */
export function importRanges(tags: readonly TagInfo[]): ImportRange[] {
  const ranges: ImportRange[] = [];
  for (const tag of tags) {
    const match = IMPORTED.exec(tag.name);
    if (match !== null) ranges.push({ start: Number(match[1]), end: Number(match[2]) });
  }
  return ranges;
}

/**
 * Records on `main` that an import which started from version `start` (0
 * for a create) completed at version `end`. Nothing when it committed
 * nothing (`end <= start`).
 *
 * @throws LanceNdError `InvalidInput` when Lance refuses the tag.
 */
export async function recordImport(main: LanceTable, start: number, end: number): Promise<void> {
  if (end <= start) return;
  const name = `${IMPORTED_TAG_PREFIX}${start}-${end}`;
  const manager = await sdkCall({ uri: main.uri, op: "tags" }, () => main.sdk.tags());
  await refCall(main, `tag "${name}" of version ${end}`, () => manager.create(name, end));
}

/**
 * Where `version` sits when it is a half-import (after the start of a
 * complete import and before its end), among the `versions` that are left;
 * null when it is not one.
 */
export function halfImportOf(
  version: number,
  ranges: readonly ImportRange[],
  versions: readonly number[],
): HalfImport | null {
  const half = (v: number) => ranges.some((r) => r.start < v && v < r.end);
  if (!half(version)) return null;
  const complete = versions.filter((v) => !half(v));
  return {
    completeBefore: complete.filter((v) => v < version).at(-1) ?? null,
    completeAfter: complete.find((v) => v > version) ?? null,
  };
}

/**
 * The record tags a cleanup may delete before it runs, so that it can
 * remove their versions: those of imports none of whose versions is in
 * `staying` (the versions the cleanup keeps).
 */
export function recordsToDrop(tags: readonly TagInfo[], staying: ReadonlySet<number>): string[] {
  return tags
    .filter((tag) => {
      const match = IMPORTED.exec(tag.name);
      return match !== null && ![...staying].some((v) => v > Number(match[1]) && v <= tag.version);
    })
    .map((tag) => tag.name);
}
