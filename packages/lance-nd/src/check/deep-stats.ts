/**
 * `check --deep`: the stats of every row with stats are computed again from
 * its values and compared with the stored ones (the table format's "Stats"
 * section: `min` and `max` are the smallest and largest value of the row).
 * Lance keeps no checksums, so this is the only check of content lance-nd
 * can make: a value changed on disk shows only when it moves its row's min
 * or max (README, "check"). It runs on the batches `check` already takes to
 * read every row, so it reads nothing more.
 */
import type { RecordBatch, Schema, Struct, Vector } from "apache-arrow";
import { computeStats, isStatsColumn, statsVariable, type Stats } from "@lance-nd/stats";

/** A row whose values contradict its stored stats. */
export interface StatsMismatch {
  /** Lance's `_rowid`. */
  rowId: number;
  /** The variable. */
  variable: string;
  /** The stored `min` and `max` (as strings: Int64 stats are bigints). */
  stored: { min: string | null; max: string | null };
  /** The `min` and `max` of the row's values. */
  values: { min: string | null; max: string | null };
}

/** Compares the rows of each batch given with their stats, collecting the mismatches. */
export interface StatsCheck {
  /** Checks every row of `batch`, which holds `_rowid` and every column of the table. */
  compare(batch: RecordBatch): void;
  /** The rows found so far whose values contradict their stats. */
  readonly mismatches: StatsMismatch[];
}

/** The stats check of a table with `schema`; null when no variable of it has stats. */
export function statsCheck(schema: Schema): StatsCheck | null {
  const variables = schema.fields
    .filter((f) => isStatsColumn(f.name))
    .map((f) => ({ stats: f.name, variable: statsVariable(f.name)! }))
    .filter(({ variable }) => schema.fields.some((f) => f.name === variable));
  if (variables.length === 0) return null;
  const mismatches: StatsMismatch[] = [];
  return {
    mismatches,
    compare(batch) {
      const rowIds = batch.getChild("_rowid")!.toArray() as BigUint64Array;
      for (const { stats, variable } of variables) compareBatch(batch, variable, stats, rowIds, mismatches);
    },
  };
}

function compareBatch(
  batch: RecordBatch,
  variable: string,
  stats: string,
  rowIds: BigUint64Array,
  out: StatsMismatch[],
): void {
  const array = batch.getChild(variable) as Vector<Struct> | null;
  const stored = batch.getChild(stats) as Vector<Struct> | null;
  const values = array?.getChild("values");
  const min = stored?.getChild("min");
  const max = stored?.getChild("max");
  if (values == null || min == null || max == null) return;
  for (let row = 0; row < batch.numRows; row++) {
    if (!stored!.isValid(row) || !array!.isValid(row)) continue;
    const rowValues = values.get(row) as Vector | null;
    if (rowValues === null) continue;
    const recomputed = computeStats(rowValues);
    if (recomputed === null) continue;
    // The stored min and max in the same units computeStats gives (Float16 decoded, Int64 as bigint).
    const storedStats: Stats = {
      min: computeStats(min.slice(row, row + 1))!.min,
      max: computeStats(max.slice(row, row + 1))!.max,
    };
    if (recomputed.min !== storedStats.min || recomputed.max !== storedStats.max) {
      out.push({
        rowId: Number(rowIds[row]),
        variable,
        stored: asText(storedStats),
        values: asText(recomputed),
      });
    }
  }
}

function asText(stats: Stats): { min: string | null; max: string | null } {
  return { min: stats.min === null ? null : String(stats.min), max: stats.max === null ? null : String(stats.max) };
}
