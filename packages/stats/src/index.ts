/**
 * @lance-nd/stats: per-row min/max statistics of Arrow vectors and the
 * `__stats__:<variable>` columns of the lance-nd table format (FORMAT.md section 4).
 *
 * @example
 * import { Float32, makeVector } from "apache-arrow";
 * import { buildStatsColumn, computeStats, statsField } from "@lance-nd/stats";
 *
 * computeStats(makeVector(new Float32Array([280, NaN, 301.5]))); // { min: 280, max: 301.5 }
 * statsField("sst", new Float32());                             // __stats__:sst: Struct<{min, max}>
 * buildStatsColumn(new Float32(), [makeVector(new Float32Array([1, 2])), null]); // rows {1, 2}, null
 */
export { StatsError, isStatsError } from "./stats-error.js";
export type { StatsErrorCode, StatsErrorContext } from "./stats-error.js";
export { hasStats } from "./stats-type.js";
export { computeStats } from "./compute-stats.js";
export type { StatValue, Stats } from "./compute-stats.js";
export { STATS_PREFIX, statsColumnName, statsVariable, isStatsColumn } from "./stats-names.js";
export { statsField, statsType, buildStatsColumn } from "./stats-column.js";
