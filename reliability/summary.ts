// vitest globalSetup of the reliability run: starts an empty counters file
// and prints the totals when the run ends.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";

/** The counters file of the reliability run (JSON lines `{ counter, n }`). */
export const COUNTERS_FILE = join(import.meta.dirname, "..", ".tmp", "reliability-counters.jsonl");

const LABELS: Record<string, string> = {
  cases: "test cases run",
  badInputs: "bad inputs rejected with a typed error",
  decodeCases: "corrupted Arrow inputs decoded without a crash or hang",
  fuzzSteps: "model fuzz steps checked against a scan",
  crashes: "SIGKILLed child processes survived",
  processes: "concurrent processes run",
  versionsRead: "committed versions read back",
  rowsVerified: "rows verified value by value",
  widenReplays: "widen replays a kill left pending, completed by check --repair",
  importRaces: "rounds of racing imports of one id that left one complete copy",
  importStops: "imports stopped midway by a signal that left the table as before",
  importLeftovers: "imports a SIGKILL left unfinished, undone by check --repair",
  tagListings: "tag listings that answered while other processes deleted tags",
  tagChurnReplaces: "rounds of waiting replaces of one id that ended 0 while tags churned",
  rowsLost: "committed rows lost or duplicated",
};

/** Clears the counters; returns the teardown that prints the summary. */
export default function setup(): () => void {
  mkdirSync(dirname(COUNTERS_FILE), { recursive: true });
  rmSync(COUNTERS_FILE, { force: true });
  return () => {
    const totals = new Map<string, number>(Object.keys(LABELS).map((k) => [k, 0]));
    let text = "";
    try {
      text = readFileSync(COUNTERS_FILE, "utf8");
    } catch {
      // no test counted anything
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const { counter, n } = JSON.parse(line) as { counter: string; n: number };
      totals.set(counter, (totals.get(counter) ?? 0) + n);
    }
    const lines = [...totals].map(([k, n]) => `  ${String(n).padStart(8)}  ${LABELS[k] ?? k}`);
    const lost = totals.get("rowsLost") ?? 0;
    console.log(
      ["", "reliability summary", ...lines, lost === 0 ? "  nothing lost" : `  LOST ${lost} committed rows`, ""].join(
        "\n",
      ),
    );
  };
}
