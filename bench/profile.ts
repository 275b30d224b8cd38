/**
 * Where lance-nd's time goes: its write, scan and one-chunk read taken apart
 * into the stages they run, each timed alone (best of N) on the same rows,
 * through the SDK layer of packages/lance-nd/src/lance.
 *
 * write: plan + encode (nd-arrow / format: table schema, `encodeRows`), the
 * Arrow IPC serialisation that lancedb's `add` does inside, the Lance add
 * itself (SDK `createTable` of the encoded rows, minus the IPC part), and the
 * writer's calls after an add (row count of the new version, table bytes,
 * schema refresh).
 * scan: Lance read (SDK `query()` of the table), conversion of the SDK's
 * Arrow batches to ours (`fromSdkBatch`), nd decode (`decodeRows`), and
 * touching the values (the sum every contestant does).
 * one chunk: version check, the pinned view of that version, the `_rowid`
 * lookup, the take, the decode.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { decodeRows, encodeRows, tableSchema } from "@lance-nd/format";
import { encodeSchema } from "@lance-nd/nd-arrow";
import type { RecordBatch } from "apache-arrow";
import { write } from "lance-nd";
import {
  checkoutVersion,
  countRows,
  currentVersion,
  fromSdkBatch,
  scanRows,
  sdkArrow,
  tableBytes,
  takeRows,
  toSdkTable,
} from "lance-nd/internal";
import type { Codec } from "./contestant.js";
import { ndBatches, sumVector, writeOptions } from "./lance-nd.js";
import { best } from "./measure.js";
import { chunkId, type OceanData } from "./ocean-data.js";

/** One stage: its name and its best time in ms. */
export interface Stage {
  stage: string;
  ms: number;
}

/** The stages of one lance-nd operation and its whole time as the bench measured it. */
export interface Profile {
  write: Stage[];
  scan: Stage[];
  chunk: Stage[];
}

/**
 * The stages of lance-nd's write, scan and one-chunk read for `codec`, using
 * folders under `tmp`. What the stages do not cover of the whole (as the main
 * run measured it) is lance-nd's own work between them; the report shows it
 * as "other".
 */
export async function profileLanceNd(data: OceanData, codec: Codec, reps: number, tmp: string): Promise<Profile> {
  const batches = ndBatches(data);
  const options = writeOptions(codec, false);
  const schemaOptions = options.columnDefaults === undefined ? {} : { columnDefaults: options.columnDefaults };
  const encode = () => encodeRows(batches, tableSchema(encodeSchema(batches), schemaOptions));
  let rows = encode();
  const encodeMs = await best(reps, async () => (rows = encode()));
  const ipcMs = await best(reps, async () => sdkArrow().tableToIPC(toSdkTable(rows), "file"));
  const dir = path.join(tmp, "profile");
  const fresh = () => fs.rmSync(dir, { recursive: true, force: true });
  const add = async () =>
    (await lancedb.connect(dir)).createTable("ocean", toSdkTable(rows), {
      storageOptions: { new_table_data_storage_version: "2.2" },
    });
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
  const touchMs = await best(reps, async () =>
    decoded.reduce((sum, row) => sum + sumVector(row.get("sst")!.values), 0),
  );
  table.close();
  fresh();

  // lance-nd's own table (its connection, its schema) for its bookkeeping calls and the point read.
  const nd = await write(path.join(dir, "ocean.lance"), batches, options);
  const lance = nd.lance;
  const version = await currentVersion(lance);
  const bookkeepingMs = await best(
    reps,
    async () => [
      await countRows(lance, `_row_created_at_version = ${version}`),
      await tableBytes(lance),
      await nd.refresh(),
    ],
    { warm: true },
  );
  const filter = `__global_attrs__.id = '${chunkId(Math.floor(data.chunks / 2))}'`;
  const versionMs = await best(reps, () => currentVersion(lance), { warm: true });
  const pinMs = await best(reps, async () => (await checkoutVersion(lance, version)).sdk.close(), { warm: true });
  let ids: bigint[] = [];
  const lookupMs = await best(
    reps,
    async () => {
      ids = [];
      for await (const batch of scanRows(lance, { columns: ["_rowid"], filter }))
        ids.push(...(batch.getChild("_rowid")!.toArray() as BigUint64Array));
    },
    { warm: true },
  );
  let taken: RecordBatch[] = [];
  const takeMs = await best(reps, async () => (taken = await takeRows(lance, ids)), { warm: true });
  const chunkDecodeMs = await best(reps, async () => taken.flatMap((rb) => decodeRows(rb)), { warm: true });
  lance.sdk.close();
  fresh();
  return {
    write: [
      { stage: "plan + encode (nd-arrow, format)", ms: encodeMs },
      { stage: "Arrow IPC serialisation (inside add)", ms: ipcMs },
      { stage: "Lance add without IPC", ms: Math.max(0, addMs - ipcMs) },
      { stage: "bookkeeping: countRows(_row_created_at_version), tableBytes, refresh", ms: bookkeepingMs },
    ],
    scan: [
      { stage: "Lance read (SDK query)", ms: readMs },
      { stage: "SDK Arrow -> ESM Arrow (fromSdkBatch)", ms: convertMs },
      { stage: "nd decode (decodeRows)", ms: decodeMs },
      { stage: "touch the values (sum)", ms: touchMs },
    ],
    chunk: [
      { stage: "version check (table.version)", ms: versionMs },
      { stage: "pin the version (openTable of a view)", ms: pinMs },
      { stage: "_rowid lookup (filtered scan)", ms: lookupMs },
      { stage: "take the row (takeRowIds)", ms: takeMs },
      { stage: "nd decode (decodeRows)", ms: chunkDecodeMs },
    ],
  };
}
