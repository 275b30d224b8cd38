// A child of the concurrency test, in one role:
// - "appender": writes `rounds` groups of 1-3 rows (append and NdWriter in
//   turn, casting "safe"), retrying a group on a commit conflict or a widen
//   that got in first; logs `commit <id>` after each call returns.
// - "deleter" / "compactor": deletes the doomed rows / compacts, in a loop
//   until the stop file exists; a compaction that met an appender's rows in
//   the moment before their repair (a concurrent widen) is logged as
//   "widen-race read" and run again.
// - "widener": widens `a` to Float64 and `n` to Int32, retrying on conflicts.
// Prints "ready" once the table is open; exits 0 when its work is done.
import { appendFileSync, existsSync } from "node:fs";
import { Float64, Int32 } from "apache-arrow";
import { NdWriter, append, compact, deleteRows, isLanceNdError, open, widen } from "lance-nd";
import { seeded } from "../helpers/children.js";
import { rowFor } from "../helpers/rows.js";

interface Args {
  uri: string;
  role: "appender" | "deleter" | "compactor" | "widener";
  writer: string;
  rounds: number;
  log: string;
  stop: string;
  seed: number;
}

const args = JSON.parse(process.argv[2]!) as Args;
const table = await open(args.uri);
const random = seeded(args.seed);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
process.stdout.write("ready\n");

/**
 * A compaction that reads an append's rows in the moment between its commit
 * over a concurrent widen and their removal (README.md, "Widen and
 * concurrent appends") fails, and succeeds when run again.
 */
function isWidenRaceRead(err: unknown): boolean {
  return args.role === "compactor" && isLanceNdError(err, "WriterFailed", "InvalidTable") && /Panic/.test(err.message);
}

/** Runs `work` until it succeeds, again after each error a concurrent commit can cause (at most 40 tries). */
async function retried(work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (err) {
      const transient = isWidenRaceRead(err);
      if (!(transient || isLanceNdError(err, "CommitConflict", "SchemaMismatch")) || attempt >= 40) throw err;
      if (transient) appendFileSync(args.log, "widen-race read\n");
      await sleep(20 + random() * 100);
    }
  }
}

if (args.role === "appender") {
  let k = 0;
  for (let round = 0; round < args.rounds; round++) {
    const ids = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${args.writer}-${k++}`);
    await retried(async () => {
      if (round % 2 === 0) {
        await append(table, ids.map(rowFor), { casting: "safe" });
      } else {
        const writer = await NdWriter.append(table, { casting: "safe", targetFragmentBytes: 150 });
        try {
          for (const id of ids) await writer.write(rowFor(id));
          await writer.finish();
        } catch (err) {
          await writer.abort().catch(() => undefined);
          throw err;
        }
      }
    });
    appendFileSync(args.log, ids.map((id) => `commit ${id}\n`).join(""));
  }
} else if (args.role === "widener") {
  await sleep(300 + random() * 1_500);
  await retried(() => widen(table, "a", new Float64()));
  await sleep(random() * 1_500);
  await retried(() => widen(table, "n", new Int32()));
} else {
  while (!existsSync(args.stop)) {
    await retried(() =>
      args.role === "deleter" ? deleteRows(table, "__global_attrs__.doomed = true") : compact(table),
    );
    await sleep(100 + random() * 300);
  }
}
