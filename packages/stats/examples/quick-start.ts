// Stats of one variable over three rows, as a lance-nd writer adds them.
// Run: node --conditions=@lance-nd/source --import tsx examples/quick-start.ts (from packages/stats)
import { Float32, Utf8, makeVector, vectorFromArray } from "apache-arrow";
import { buildStatsColumn, computeStats, isStatsColumn, statsField, statsVariable } from "@lance-nd/stats";

const sst = makeVector(new Float32Array([280.5, NaN, 301.25, 275]));
console.log(computeStats(sst)); // { min: 275, max: 301.25 }: NaN does not count

// Strings order by UTF-8 bytes: "\uFFFF" < "😀" (JS string order says the opposite).
const words = computeStats(vectorFromArray(["😀", "\uFFFF"], new Utf8()));
console.log("min is U+FFFF:", words?.min === "\uFFFF", "max:", words?.max); // true 😀

// One stats row per table row: null when the row lacks the variable,
// null min and max when no value counts.
const rows = [sst, null, makeVector(new Float32Array([NaN]))];
const column = buildStatsColumn(new Float32(), rows);
const field = statsField("sst", new Float32());
console.log(field.name, String(field.type));
console.log(column.toArray().map((row) => (row === null ? null : row.toJSON())));

console.log(isStatsColumn(field.name), statsVariable(field.name)); // true sst
