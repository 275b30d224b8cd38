// Runs lance-nd calls on tables this process may not fully use (the
// permission test of table-errors.test.ts starts it as another user when the
// suite runs as root) and prints each error as one JSON line: { op, code, message }.
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, open, scan, write } from "lance-nd";

type Op = "create" | "append" | "scan";
const calls = JSON.parse(process.argv[2]!) as Array<{ uri: string; op: Op }>;
const rows = [new NdRecordBatch({ a: NdArray.from([1, 2], { dims: { x: 2 } }) }, { id: "probe" })];

async function run(uri: string, op: Op): Promise<unknown> {
  if (op === "create") return write(uri, rows);
  if (op === "append") return append(await open(uri), rows);
  return scan(await open(uri)).toArray();
}

for (const { uri, op } of calls) {
  const result = await run(uri, op).then(
    () => ({ code: null, message: "no error" }),
    (err: unknown) => ({ code: (err as { code?: string }).code ?? null, message: String((err as Error).message) }),
  );
  console.log(JSON.stringify({ op, ...result }));
}
