import { StatsError } from "./stats-error.js";

/** The prefix of each stats column name: `__stats__:` plus the variable. */
export const STATS_PREFIX = "__stats__:";

/** Each column name that starts with this is reserved (FORMAT.md 4.7). */
const RESERVED_PREFIX = "__stats__";

/**
 * The stats column name of `variable`: `"__stats__:" + variable`. The
 * variable may hold `:` itself. Throws `InvalidName` for an empty variable.
 *
 * @example
 * statsColumnName("sst"); // "__stats__:sst"
 */
export function statsColumnName(variable: string): string {
  if (variable === "") throw new StatsError("InvalidName", "a stats column needs a non-empty variable name");
  return STATS_PREFIX + variable;
}

/**
 * The variable of a stats column name: the part after the first `:` of a
 * name that starts with `__stats__:`. Null for any other name, and for
 * `__stats__:` itself (no variable).
 *
 * @example
 * statsVariable("__stats__:a:b"); // "a:b"
 * statsVariable("sst");           // null
 */
export function statsVariable(columnName: string): string | null {
  if (!columnName.startsWith(STATS_PREFIX) || columnName.length === STATS_PREFIX.length) return null;
  return columnName.slice(STATS_PREFIX.length);
}

/**
 * True when `name` is reserved for stats: it starts with `__stats__`, with
 * or without the `:`. A reader leaves such columns out of the nd record
 * batches (FORMAT.md 4.7).
 */
export function isStatsColumn(name: string): boolean {
  return name.startsWith(RESERVED_PREFIX);
}
