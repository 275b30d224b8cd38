/**
 * Where lance-nd's time goes: its write, scan, one-chunk read and `time`
 * read taken apart into the stages they run, each stage timed alone (best of
 * N) along the path lance-nd itself takes, through the SDK layer of
 * packages/lance-nd/src/lance (`lance-nd/internal`):
 *
 * - write: plan + encode of all rows (nd-arrow, format); the Lance adds
 *   alone, as many as lance-nd's write made (one fragment each) with as
 *   many in flight (Arrow IPC inside each add); the writer's calls after an
 *   add (row count of the new version, table bytes, schema refresh).
 * - scan: the Lance reads by takes, as lance-nd reads a table of more
 *   fragments than batches (packages/lance-nd/README.md, "Fragments and
 *   reads"); the nd decode; touching the values.
 * - one chunk: version check, the pinned view of that version, the filtered
 *   scan bounded to one take's rows (through the key index), the decode.
 * - `time`: version check, the Lance read of `time` and the global
 *   attributes (takes or one scan, as lance-nd plans it), the decode.
 *
 * lance-nd overlaps stages (it encodes the next add while Lance writes one,
 * decodes a batch while the next is read), so the stages may add up to more
 * than the whole; the report's "other" is then negative.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { decodeRows, encodeRows, tableSchema } from "@lance-nd/format";
import { encodeSchema } from "@lance-nd/nd-arrow";
import type { RecordBatch } from "apache-arrow";
import { indexGlobalAttr, write } from "lance-nd";
import {
  DEFAULT_BATCH_READAHEAD,
  DEFAULT_BATCH_SIZE,
  DEFAULT_BATCH_SIZE_BYTES,
  type LanceTable,
  batchRows,
  checkoutVersion,
  countRows,
  currentVersion,
  rowBytes,
  scanRows,
  tableBytes,
  takeRead,
  toSdkTable,
  withoutRowId,
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

/** The stages of lance-nd's operations (`time` is missing from runs saved before it was profiled). */
export interface Profile {
  write: Stage[];
  scan: Stage[];
  chunk: Stage[];
  time?: Stage[];
}

/** lance-nd's default batch limits of a scan (scan.ts). */
const limits = {
  batchSize: DEFAULT_BATCH_SIZE,
  batchSizeBytes: DEFAULT_BATCH_SIZE_BYTES,
  readahead: DEFAULT_BATCH_READAHEAD,
};

/** lance-nd's default adds in flight on local disk (packages/lance-nd/README.md, "Parallel adds"). */
const ADDS_IN_FLIGHT = 4;

/**
 * The stages of lance-nd's write, scan, one-chunk read and `time` read for
 * `codec`, using folders under `tmp`. What the stages do not cover of the
 * whole (as the main run measured it) is lance-nd's own work between them;
 * the report shows it as "other".
 */
export async function profileLanceNd(data: OceanData, codec: Codec, reps: number, tmp: string): Promise<Profile> {
  const batches = ndBatches(data);
  const options = writeOptions(codec, false);
  const dir = path.join(tmp, "profile");
  fs.rmSync(dir, { recursive: true, force: true });
  // lance-nd's own table: its fragments are the adds its write made; its key index serves the point read.
  const nd = await write(path.join(dir, "ocean.lance"), batches, options);
  await indexGlobalAttr(nd, "id");
  const lance = nd.lance;
  const version = await currentVersion(lance);
  const fragments = (await lance.sdk.stats()).fragmentStats.numFragments;

  const schemaOptions = options.columnDefaults === undefined ? {} : { columnDefaults: options.columnDefaults };
  const schema = tableSchema(encodeSchema(batches), schemaOptions);
  let rows = encodeRows(batches, schema);
  const encodeMs = await best(reps, async () => (rows = encodeRows(batches, schema)));
  const addsMs = await timeAdds(rows, fragments, path.join(tmp, "profile-adds"), reps);
  const bookkeepingMs = await best(
    reps,
    async () => [
      await countRows(lance, `_row_created_at_version = ${version}`),
      await tableBytes(lance),
      await nd.refresh(),
    ],
    { warm: true },
  );

  const view = await checkoutVersion(lance, version);
  const request = { columns: undefined, rows: { count: data.chunks }, bytesPerRow: await rowBytes(view, undefined) };
  let read: RecordBatch[] = [];
  const readAll = async () => {
    read = [];
    for await (const taken of takeRead(view, request, limits, (rb) => [rb])) read.push(...taken);
  };
  const readMs = await best(reps, readAll, { warm: true });
  let decoded: ReturnType<typeof decodeRows> = [];
  const decodeMs = await best(reps, async () => (decoded = read.flatMap((rb) => decodeRows(rb))));
  const touchMs = await best(reps, async () =>
    decoded.reduce((sum, row) => sum + sumVector(row.get("sst")!.values), 0),
  );
  read = [];
  decoded = [];

  const versionMs = await best(reps, () => currentVersion(lance), { warm: true });
  const pinMs = await best(reps, async () => (await checkoutVersion(lance, version)).sdk.close(), { warm: true });
  const filter = `__global_attrs__.id = '${chunkId(Math.floor(data.chunks / 2))}'`;
  const cap = batchRows(DEFAULT_BATCH_SIZE, DEFAULT_BATCH_SIZE_BYTES, request.bytesPerRow);
  let found: RecordBatch[] = [];
  const findMs = await best(
    reps,
    async () => {
      found = [];
      for await (const batch of scanRows(view, { filter, limit: cap, maxBatchLength: cap, withRowId: true }))
        found.push(batch);
    },
    { warm: true },
  );
  const rowsFound = found.map(withoutRowId);
  const chunkDecodeMs = await best(reps, async () => rowsFound.flatMap((rb) => decodeRows(rb)), { warm: true });

  const time = await timeRead(view, data.chunks, fragments, reps);
  view.sdk.close();
  lance.sdk.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    write: [
      { stage: "plan + encode (nd-arrow, format), all rows", ms: encodeMs },
      { stage: `Lance adds alone: ${fragments}, ${ADDS_IN_FLIGHT} in flight (Arrow IPC inside)`, ms: addsMs },
      { stage: "bookkeeping: countRows(_row_created_at_version), tableBytes, refresh", ms: bookkeepingMs },
    ],
    scan: [
      { stage: "Lance reads: takes by offset (8 MiB, 2 ahead)", ms: readMs },
      { stage: "nd decode (decodeRows)", ms: decodeMs },
      { stage: "touch the values (sum)", ms: touchMs },
    ],
    chunk: [
      { stage: "version check (table.version)", ms: versionMs },
      { stage: "pin the version (openTable of a view)", ms: pinMs },
      { stage: "filtered scan bounded to one take's rows (key index)", ms: findMs },
      { stage: "nd decode (decodeRows)", ms: chunkDecodeMs },
    ],
    time: [{ stage: "version check (table.version)", ms: versionMs }, ...time],
  };
}

/**
 * The best time of `adds` Lance adds of `rows` (cut in equal runs, as
 * lance-nd's write cut them), {@link ADDS_IN_FLIGHT} at once, into a new
 * empty table under `dir`.
 */
async function timeAdds(rows: RecordBatch, adds: number, dir: string, reps: number): Promise<number> {
  const perAdd = Math.ceil(rows.numRows / adds);
  const runs = Array.from({ length: adds }, (_, i) => rows.slice(i * perAdd, (i + 1) * perAdd)).filter(
    (run) => run.numRows > 0,
  );
  const storageOptions = { new_table_data_storage_version: "2.2" };
  return best(
    reps,
    async () => {
      const table = await (await lancedb.connect(dir)).createTable("ocean", toSdkTable(rows.slice(0, 0)), {
        storageOptions,
      });
      let next = 0;
      const lane = async () => {
        while (next < runs.length) await table.add(toSdkTable(runs[next++]!));
      };
      await Promise.all(Array.from({ length: Math.min(ADDS_IN_FLIGHT, runs.length) }, lane));
      table.close();
    },
    { after: () => fs.rmSync(dir, { recursive: true, force: true }) },
  );
}

/**
 * The stages of the `time` read: the Lance read of `time` and the global
 * attributes as lance-nd plans it (takes by offset when the table has more
 * fragments than batches, else one scan), then the decode.
 */
async function timeRead(view: LanceTable, rows: number, fragments: number, reps: number): Promise<Stage[]> {
  const columns = ["time", "__global_attrs__"];
  const bytesPerRow = await rowBytes(view, columns);
  const perBatch = batchRows(DEFAULT_BATCH_SIZE, DEFAULT_BATCH_SIZE_BYTES, bytesPerRow);
  const byTakes = fragments > Math.ceil(rows / perBatch);
  let read: RecordBatch[] = [];
  const readMs = await best(
    reps,
    async () => {
      read = [];
      const batches = byTakes
        ? takeRead(view, { columns, rows: { count: rows }, bytesPerRow }, limits, (rb) => [rb])
        : scanRows(view, { columns, maxBatchLength: perBatch });
      for await (const batch of batches) read.push(...(Array.isArray(batch) ? batch : [batch]));
    },
    { warm: true },
  );
  const decodeMs = await best(reps, async () => read.flatMap((rb) => decodeRows(rb)), { warm: true });
  return [
    { stage: `Lance read of time + __global_attrs__ (${byTakes ? "takes by offset" : "one scan"})`, ms: readMs },
    { stage: "nd decode (decodeRows)", ms: decodeMs },
  ];
}
