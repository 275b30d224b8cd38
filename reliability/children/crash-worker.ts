// A child of the crash test: opens the table, prints "ready", then runs one
// kind of operation in a loop until the parent kills it (or a bound is hit).
// After each call returns it appends what was committed to its log file:
// `commit <id>` for written rows, `deleted <id>` for deleted rows. A replace
// logs `replacing <id>` for its rows before the call; "rewrite" prints each
// step of the widen's rewrite and replay ("overwrite", "deletes", ...). "replace-pause" stops
// between the two commits of a replace, prints "appended" and waits for the kill.
// An append that a widen's rewrite (another process) preempts fails with
// CommitConflict and adds nothing (README.md, Widen): "append" goes on.
import { appendFileSync } from "node:fs";
import { Float64, Int32 } from "apache-arrow";
import { NdWriter, append, isLanceNdError, open, replaceRows, scan, widen, col } from "lance-nd";
import { replaceRowsWith, widenTable } from "lance-nd/internal";
import { isDoomed, rowFor, wideName } from "../helpers/rows.js";

interface Args {
  uri: string;
  op: "writer" | "append" | "widen" | "rewrite" | "delete" | "compact" | "replace" | "replace-pause";
  writer: string;
  log: string;
}

const args = JSON.parse(process.argv[2]!) as Args;
const table = await open(args.uri);
const log = (kind: string, ids: string[]) => appendFileSync(args.log, ids.map((id) => `${kind} ${id}\n`).join(""));
process.stdout.write("ready\n");

const byId = (ids: string[]) => col(["__global_attrs__", "id"]).isIn(ids);

if (args.op === "replace-pause") {
  const ids = [`${args.writer}-0`, `${args.writer}-1`];
  await replaceRowsWith(
    table,
    ids.map(rowFor),
    byId(ids),
    {},
    {
      afterAppend: async () => {
        process.stdout.write("appended\n");
        await new Promise(() => setInterval(() => undefined, 1_000));
      },
    },
  );
}

let k = 0;
const nextIds = (n: number) => Array.from({ length: n }, () => `${args.writer}-${k++}`);

for (let round = 0; round < 200; round++) {
  if (args.op === "writer") {
    const ids = nextIds(8);
    const writer = await NdWriter.append(table, { targetFragmentBytes: 1_000, writeParallelism: 2 });
    for (const id of ids) await writer.write(rowFor(id));
    await writer.finish();
    log("commit", ids);
  } else if (args.op === "append") {
    const ids = nextIds(3);
    try {
      await append(table, ids.map(rowFor));
      log("commit", ids);
    } catch (err) {
      if (!isLanceNdError(err, "CommitConflict")) throw err;
    }
  } else if (args.op === "widen") {
    const [id] = nextIds(1);
    await append(table, [rowFor(id!)]);
    log("commit", [id!]);
    await widen(table, wideName(id!), new Int32());
  } else if (args.op === "rewrite") {
    // Int16 -> Float64 crosses kinds: the rewrite path (an overwrite, then the replay of what others committed
    // meanwhile). Each step is printed, so the parent can kill inside the replay.
    const [id] = nextIds(1);
    await append(table, [rowFor(id!)]);
    log("commit", [id!]);
    await widenTable(table, wideName(id!), new Float64(), {
      afterStep: async (step) => {
        process.stdout.write(`${step}\n`);
      },
    });
  } else if (args.op === "replace") {
    // A new row and the last two rows of this child again: append at v, then delete their copies created before v.
    const ids = [
      ...nextIds(1),
      ...(k > 1 ? [`${args.writer}-${k - 2}`] : []),
      ...(k > 2 ? [`${args.writer}-${k - 3}`] : []),
    ];
    log("replacing", ids);
    await replaceRows(table, ids.map(rowFor), byId(ids));
    log("commit", ids);
  } else if (args.op === "delete") {
    const doomed: string[] = [];
    for await (const row of scan(table).project([]).filter("__global_attrs__.doomed = true"))
      doomed.push(String(row.globalAttr("id")));
    if (doomed.length > 0) {
      await table.delete(col(["__global_attrs__", "id"]).isIn(doomed));
      log("deleted", doomed.filter(isDoomed));
    }
    const ids = nextIds(5);
    await append(table, ids.map(rowFor));
    log("commit", ids);
  } else {
    const ids = nextIds(2);
    await append(table, ids.map(rowFor));
    log("commit", ids);
    await table.compact();
  }
}
