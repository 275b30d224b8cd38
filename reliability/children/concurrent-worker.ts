// A child of the concurrency test, in one role:
// - "appender": writes `rounds` groups of 1-3 rows (append and NdWriter in
//   turn, casting "safe"), retrying a group on a commit conflict or a widen
//   that got in first; logs `commit <id>` after each call returns.
// - "deleter" / "compactor": deletes the doomed rows / compacts, in a loop
//   until the stop file exists; a compaction that met an appender's rows in
//   the moment before their repair (a concurrent widen) is logged as
//   "widen-race read" and run again.
// - "widener": widens `a` to Float64 and `n` to Int32, retrying on conflicts.
// - "rewriter": widens `n` to Float64 (across kinds: a rewrite of the table).
// - "replacer": until the stop file exists, replaces a new row and its last
//   two rows again (replaceRows: append at v, then delete their copies
//   created before v); logs `commit <id>` after each call returns.
// Prints "ready" once the table is open; exits 0 when its work is done.
import { appendFileSync, existsSync } from "node:fs";
import { seededRandom } from "@lance-nd/test-helpers";
import { Float64, Int32 } from "apache-arrow";
import { append, col, isLanceNdError, NdWriter, open, RollbackIncompleteError, replaceRows, widen } from "lance-nd";
import { rowFor } from "../helpers/rows.js";

interface Args {
  uri: string;
  role: "appender" | "deleter" | "compactor" | "widener" | "rewriter" | "replacer";
  writer: string;
  rounds: number;
  log: string;
  stop: string;
  seed: number;
  /** The NdWriter's add size (default 150 bytes: an add per row). */
  targetFragmentBytes?: number;
}

const args = JSON.parse(process.argv[2]!) as Args;
const table = await open(args.uri);
const random = seededRandom(args.seed);
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

/** An NdWriter whose add met a concurrent commit, and whose rollback completed (append() throws the conflict itself). */
function failedOnConflict(err: unknown): boolean {
  return (
    isLanceNdError(err, "WriterFailed") &&
    !(err instanceof RollbackIncompleteError) &&
    isLanceNdError(err.cause, "CommitConflict")
  );
}

/** Runs `work` until it succeeds, again after each error a concurrent commit can cause (at most 40 tries). */
async function retried(work: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (err) {
      const transient = isWidenRaceRead(err);
      if (
        !(transient || isLanceNdError(err, "CommitConflict", "SchemaMismatch") || failedOnConflict(err)) ||
        attempt >= 40
      )
        throw err;
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
        const writer = await NdWriter.append(table, {
          casting: "safe",
          targetFragmentBytes: args.targetFragmentBytes ?? 150,
        });
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
} else if (args.role === "rewriter") {
  // Int16 -> Float64 crosses kinds: widen rewrites the whole table as one overwrite.
  await sleep(300 + random() * 1_500);
  await retried(() => widen(table, "n", new Float64()));
} else if (args.role === "replacer") {
  for (let k = 0; !existsSync(args.stop); k++) {
    const ids = [k, k - 1, k - 2].filter((i) => i >= 0).map((i) => `${args.writer}-${i}`);
    await retried(() =>
      replaceRows(table, ids.map(rowFor), col(["__global_attrs__", "id"]).isIn(ids), { casting: "safe" }),
    );
    appendFileSync(args.log, ids.map((id) => `commit ${id}\n`).join(""));
    await sleep(50 + random() * 200);
  }
} else {
  while (!existsSync(args.stop)) {
    await retried(() => (args.role === "deleter" ? table.delete("__global_attrs__.doomed = true") : table.compact()));
    await sleep(100 + random() * 300);
  }
}
