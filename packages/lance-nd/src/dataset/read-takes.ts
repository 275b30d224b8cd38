/**
 * Which takes a read makes. Each group of variables is read from its own
 * rows (`variable-rows.ts`), so rows differ in the variables a read needs of
 * them: a row at the grid's first cell gives the coordinates too, the
 * others only the data variables. Every SDK take costs a call, and what a
 * take costs beyond that is the bytes of the rows and columns it reads
 * (SDK-NOTES.md, section 26 "The ways to read a few big rows, per byte"):
 * so the rows are taken in one call with the union of the variables they
 * need whenever that reads few more bytes than the rows need, which holds
 * when the rows of the smaller groups are among the rows of a bigger one
 * (coordinates' pieces are small beside the data variable's). On a wide
 * table, where a call's fixed cost outweighs such bytes, `take-cost.ts`
 * merges these takes further.
 */
import { rowValueBytes } from "./row-bytes.js";
import type { DatasetPlan } from "./plan.js";
import type { PlannedRow } from "./plan-rows.js";
import type { VariableRows } from "./variable-rows.js";

/** One take of a read: rows, the variables taken from every one of them, and those each row must hold. */
export interface ReadTake {
  readonly rows: readonly PlannedRow[];
  readonly names: readonly string[];
  /** The variables `row` is read for (the others of `names` may be null in it). */
  readonly neededOf: (row: PlannedRow) => readonly string[];
}

/**
 * Rows needing different variables share one take when it reads at most
 * this share more bytes than they need (the variables each row is read
 * for): a big variable that only some of the rows are read for (a field
 * without the time dim held whole by rows of one time step each) would be
 * read again from every row, so those rows get takes of their own.
 */
const EXTRA_BYTES_SHARE = 0.25;

interface Take {
  rows: PlannedRow[];
  names: string[];
  /** The bytes of the variables each row is read for. */
  needed: number;
}

/**
 * The takes of the rows `groups` read: the rows needing the same variables
 * in one take, and takes merged (rows joined, variables united) while a
 * merged take holds every variable in every row and reads at most
 * {@link EXTRA_BYTES_SHARE} more than its rows need; largest takes first.
 */
export function readTakes(plan: DatasetPlan, groups: readonly VariableRows[]): ReadTake[] {
  const namesOf = new Map<PlannedRow, string[]>();
  for (const group of groups)
    for (const row of group.rows) namesOf.set(row, [...(namesOf.get(row) ?? []), ...group.names]);
  const byNames = new Map<string, Take & { bytesOf: (row: PlannedRow) => number }>();
  for (const [row, names] of namesOf) {
    const key = names.join("\u0000");
    const same = byNames.get(key);
    if (same === undefined) {
      const bytesOf = rowValueBytes(plan, names);
      byNames.set(key, { rows: [row], names, needed: bytesOf(row), bytesOf });
    } else {
      same.rows.push(row);
      same.needed += same.bytesOf(row);
    }
  }
  const takes: Take[] = [];
  for (const take of [...byNames.values()].sort((a, b) => b.needed - a.needed)) {
    const at = takes.findIndex((into, i) => {
      const merged = merge(plan, into, take);
      if (merged !== undefined) takes[i] = merged;
      return merged !== undefined;
    });
    if (at === -1) takes.push(take);
  }
  return takes.map(({ rows, names }) => ({ rows, names, neededOf: () => names }));
}

/** `into` and `take` as one take, or undefined when a row lacks one of the variables or it reads too many more bytes. */
function merge(plan: DatasetPlan, into: Take, take: Take): Take | undefined {
  const names = [...into.names, ...take.names.filter((name) => !into.names.includes(name))];
  const rows = [...into.rows, ...take.rows];
  if (!rows.every((row) => names.every((name) => row.variables.has(name)))) return undefined;
  const needed = into.needed + take.needed;
  const bytesOf = rowValueBytes(plan, names);
  const read = rows.reduce((sum, row) => sum + bytesOf(row), 0);
  return read <= needed * (1 + EXTRA_BYTES_SHARE) ? { rows, names, needed } : undefined;
}
