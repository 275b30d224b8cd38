// Counters of the reliability suite: each test adds what it tried and
// verified; the reliability run (vitest.reliability.config.ts) prints the
// totals at the end. Outside that run (no RELIABILITY_COUNTERS) they count nothing.
import { appendFileSync } from "node:fs";

/** What the suite counts. */
export type Counter =
  | "cases" // test cases run
  | "badInputs" // bad inputs tried, each rejected with its typed error
  | "fuzzSteps" // model fuzz steps checked against a scan
  | "decodeCases" // corrupted Arrow inputs given to decode
  | "crashes" // child processes killed (SIGKILL) and survived
  | "processes" // concurrent writer / maintenance processes run
  | "versionsRead" // committed versions read back after crashes
  | "rowsVerified" // rows compared value by value with what was committed
  | "widenReplays" // widen replays a kill left pending, completed by check --repair
  | "importRaces" // rounds of two racing imports of one id that left one complete copy
  | "importStops" // imports stopped midway by a signal that left the table as before
  | "importLeftovers" // imports a SIGKILL left unfinished, undone by check --repair
  | "tagListings" // tag listings that answered while other processes deleted tags
  | "tagChurnReplaces" // rounds of waiting replaces of one id that ended 0 while tags churned
  | "rowsLost"; // committed rows missing or duplicated (must stay 0)

/** Adds `n` to `counter` (a line in the file named by RELIABILITY_COUNTERS). */
export function count(counter: Counter, n = 1): void {
  const file = process.env.RELIABILITY_COUNTERS;
  if (file === undefined || file === "") return;
  appendFileSync(file, `${JSON.stringify({ counter, n })}\n`);
}
