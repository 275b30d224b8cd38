// A child process for test/import-claims/import-claim.test.ts: an import that claims the
// table (writer locks and mark), does part or all of its writes, prints
// "ready" and waits to be killed, so its claim is left behind as a
// SIGKILLed import leaves it. Argument: one JSON object { uri, mode, step,
// branch? }.
import { col } from "../../src/read/expr.js";
import { open } from "../../src/table.js";
import { claimImport } from "../../src/import-claims/import-claim.js";
import { lockIds } from "../../src/import-claims/writer-lock.js";
import { replaceRows } from "../../src/write/replace-rows.js";
import { append, write } from "../../src/write/write.js";
import { openTable } from "../../src/lance/table-open.js";
import { currentVersion } from "../../src/lance/table-versions.js";
import { sstRow } from "./write-rows.js";

const {
  uri,
  mode,
  step,
  branch = null,
} = JSON.parse(process.argv[2]!) as {
  uri: string;
  branch?: string | null;
  mode: "create" | "append" | "replace" | "overwrite";
  /** "lock": only the lock; "append": the appends of a replace, not its delete; "all": every write. */
  step: "lock" | "append" | "all";
};
const claim = { branch, ids: ["r1"], wait: { timeoutMs: 0 } };
const rows = [sstRow(91, { id: "r1" }), sstRow(92, { id: "r1" })];
if (step === "lock") {
  const main = await openTable(uri);
  await lockIds(main, null, ["r1"], await currentVersion(main), claim.wait);
} else if (mode === "create") {
  await write(uri, [rows[0]!]);
  await claimImport(uri, { ...claim, mode });
  await append(await open(uri), [rows[1]!]);
} else {
  await claimImport(uri, { ...claim, mode });
  const table = await open(uri, branch === null ? {} : { branch });
  if (mode === "overwrite") await write(uri, rows, { mode: "overwrite" });
  else if (mode === "replace" && step === "all") await replaceRows(table, rows, col("__global_attrs__.id").eq("r1"));
  else await append(table, rows);
}
process.stdout.write("ready\n");
setInterval(() => undefined, 1000);
