/**
 * What the takes of a dataset read cost a wide table, and takes merged by
 * it. Each SDK take costs a fixed time that grows with the table's schema
 * (Lance converts it for the projection), about 12 µs per field: 230-370 ms
 * on the 21,979 fields of GMT's dcw-gmt.nc, whatever the rows and columns
 * taken; each projected column adds about 0.14 µs per field, and each
 * projected cell (a row times a column, null ones too) about 0.1 ms
 * (SDK-NOTES.md, section 29 "The fixed cost of a take on a wide table").
 * An import that groups variables on dims of their own (CLI README, "Rows
 * of an import") makes rows that each need different variables, so a read
 * plans a take per group of rows: dozens of calls, each mostly its fixed
 * cost. On such a table the takes are merged (rows joined, columns united:
 * the columns a row does not hold are null in it and cost no bytes) while
 * merging costs less than the calls it saves, each merged take within the
 * read's byte budget (the rows' values it reads), so a read holds what it
 * held before (README "Memory bounds"). On a narrow table a call costs a
 * few ms and the takes stay as `read-takes.ts` plans them.
 */
import { heldValueBytes } from "./row-bytes.js";
import type { DatasetPlan } from "./plan.js";
import type { PlannedRow } from "./plan-rows.js";
import type { ReadTake } from "./read-takes.js";

/** Seconds each take costs per field of the table's schema, whatever it reads. */
const CALL_SECONDS_PER_FIELD = 12e-6;
/** Seconds each projected column of a take costs per field of the table's schema. */
const COLUMN_SECONDS_PER_FIELD = 0.14e-6;
/** Seconds each projected cell (row times column, null or not) of a take costs. */
const CELL_SECONDS = 1e-4;
/** Seconds a take spends per byte of values it reads (about 7 ms per MiB: SDK-NOTES.md, section 26). */
const SECONDS_PER_BYTE = 7e-3 / 2 ** 20;
/** Takes are merged only when a call costs at least this (about 1,700 fields). */
const CALL_SECONDS_WORTH_MERGING = 0.02;

/** A take being merged: its columns, and the variables each row is read for. */
interface MergedTake {
  rows: PlannedRow[];
  names: string[];
  needs: Map<PlannedRow, readonly string[]>;
  /** The bytes of values the take reads: each row's held variables of `names`. */
  bytes: number;
}

/**
 * `takes` (from `readTakes`) merged while a merged take costs less than
 * the takes it replaces, on a table whose schema has `fields` fields, each
 * merged take reading at most `maxBytes` of values (0: no merging). Takes
 * a table of few fields as they are.
 */
export function fewerTakes(
  plan: DatasetPlan,
  takes: readonly ReadTake[],
  fields: number,
  maxBytes: number,
): ReadTake[] {
  if (maxBytes === 0 || fields * CALL_SECONDS_PER_FIELD < CALL_SECONDS_WORTH_MERGING) return [...takes];
  const seconds = (take: MergedTake) =>
    fields * (CALL_SECONDS_PER_FIELD + (take.names.length + 1) * COLUMN_SECONDS_PER_FIELD) +
    take.rows.length * (take.names.length + 1) * CELL_SECONDS +
    take.bytes * SECONDS_PER_BYTE;
  const merged: MergedTake[] = [];
  for (const take of takes) {
    const own = asMerged(plan, take);
    let best: { at: number; take: MergedTake; saved: number } | undefined;
    merged.forEach((into, at) => {
      const joined = join(plan, into, own);
      const saved = seconds(into) + seconds(own) - seconds(joined);
      if (joined.bytes <= maxBytes && saved > 0 && (best === undefined || saved > best.saved))
        best = { at, take: joined, saved };
    });
    if (best === undefined) merged.push(own);
    else merged[best.at] = best.take;
  }
  return merged.map(({ rows, names, needs }) => ({ rows, names, neededOf: (row) => needs.get(row)! }));
}

/** `take` as a take being merged, with the bytes it reads. */
function asMerged(plan: DatasetPlan, take: ReadTake): MergedTake {
  const bytesOf = heldValueBytes(plan, take.names);
  return {
    rows: [...take.rows],
    names: [...take.names],
    needs: new Map(take.rows.map((row) => [row, take.neededOf(row)])),
    bytes: take.rows.reduce((sum, row) => sum + bytesOf(row), 0),
  };
}

/** `into` and `take` as one take: their rows, their columns united, each row needing what it needed. */
function join(plan: DatasetPlan, into: MergedTake, take: MergedTake): MergedTake {
  const known = new Set(into.names);
  const added = take.names.filter((name) => !known.has(name));
  const taken = new Set(take.names);
  const lacked = into.names.filter((name) => !taken.has(name));
  const addedBytes = heldValueBytes(plan, added);
  const lackedBytes = heldValueBytes(plan, lacked);
  const bytes =
    into.bytes +
    take.bytes +
    into.rows.reduce((sum, row) => sum + addedBytes(row), 0) +
    take.rows.reduce((sum, row) => sum + lackedBytes(row), 0);
  return {
    rows: [...into.rows, ...take.rows],
    names: [...into.names, ...added],
    needs: new Map([...into.needs, ...take.needs]),
    bytes,
  };
}
