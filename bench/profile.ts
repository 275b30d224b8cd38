/**
 * Where lance-nd's time goes: its write and scan taken apart into the
 * stages it runs, each timed alone (best of N) on the same rows.
 *
 * write: plan + encode (nd-arrow / format: table schema, `encodeRows`), the
 * Arrow IPC serialisation that lancedb's `add` does inside, the Lance add
 * itself (SDK `createTable` of the encoded rows, minus the IPC part).
 * scan: Lance read (SDK `query()` of the lance-nd table), conversion of the
 * SDK's Arrow batches to ours (`fromSdkBatch`), nd decode (`decodeRows`),
 * and touching the values (the sum every contestant does).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { decodeRows, encodeRows, tableSchema } from "@lance-nd/format";
import { encodeSchema } from "@lance-nd/nd-arrow";
import type { RecordBatch } from "apache-arrow";
import { fromSdkBatch, sdkArrow, toSdkTable } from "../packages/lance-nd/src/lance/arrow-bridge.js";
import type { Codec } from "./contestant.js";
import { ndBatches, sumVector, writeOptions } from "./lance-nd.js";
import { best } from "./measure.js";
import type { OceanData } from "./ocean-data.js";

/** One stage: its name and its best time in ms. */
export interface Stage {
  stage: string;
  ms: number;
}

/** The stages of lance-nd's write and scan for `codec`, using folders under `tmp`. */
export async function profileLanceNd(data: OceanData, codec: Codec, reps: number, tmp: string): Promise<{ write: Stage[]; scan: Stage[] }> {
  const batches = ndBatches(data);
  const options = writeOptions(codec, false);
  const schemaOptions = options.columnDefaults === undefined ? {} : { columnDefaults: options.columnDefaults };
  const encode = () => encodeRows(batches, tableSchema(encodeSchema(batches), schemaOptions));
  let rows = encode();
  const encodeMs = await best(reps, async () => (rows = encode()));
  const ipcMs = await best(reps, async () => sdkArrow().tableToIPC(toSdkTable(rows), "file"));
  const dir = path.join(tmp, "profile");
  const fresh = () => fs.rmSync(dir, { recursive: true, force: true });
  const add = async () => (await lancedb.connect(dir)).createTable("ocean", toSdkTable(rows), { storageOptions: { new_table_data_storage_version: "2.2" } });
  const addMs = await best(reps, add, { after: fresh });

  const table = await add();
  const sdkBatches: RecordBatch[] = [];
  const readMs = await best(
    reps,
    async () => {
      sdkBatches.length = 0;
      for await (const batch of table.query()) sdkBatches.push(batch as RecordBatch);
    },
    { warm: true },
  );
  let ours: RecordBatch[] = [];
  const convertMs = await best(reps, async () => (ours = sdkBatches.map(fromSdkBatch)));
  let decoded: ReturnType<typeof decodeRows> = [];
  const decodeMs = await best(reps, async () => (decoded = ours.flatMap((rb) => decodeRows(rb))));
  const touchMs = await best(reps, async () => decoded.reduce((sum, row) => sum + sumVector(row.get("sst")!.values), 0));
  table.close();
  fresh();
  return {
    write: [
      { stage: "plan + encode (nd-arrow, format)", ms: encodeMs },
      { stage: "Arrow IPC serialisation (inside add)", ms: ipcMs },
      { stage: "Lance add without IPC", ms: Math.max(0, addMs - ipcMs) },
    ],
    scan: [
      { stage: "Lance read (SDK query)", ms: readMs },
      { stage: "SDK Arrow -> ESM Arrow (fromSdkBatch)", ms: convertMs },
      { stage: "nd decode (decodeRows)", ms: decodeMs },
      { stage: "touch the values (sum)", ms: touchMs },
    ],
  };
}
