/**
 * Raw `@lancedb/lancedb`: the same rows in the same `nd_arrow.array` layout
 * as lance-nd writes, handed to the SDK in one `createTable` (no lance-nd
 * checks, evolution or commit logic); read with `query()` and the two-step point
 * read (`_rowid`s of the matching rows, then `takeRowIds`), the fastest raw
 * way (packages/lance-nd/SDK-NOTES.md section 5). The ceiling for
 * lance-nd's own overhead. Building the Arrow batch is not timed.
 */
import * as lancedb from "@lancedb/lancedb";
import { encodeRows, tableSchema } from "@lance-nd/format";
import { encodeSchema } from "@lance-nd/nd-arrow";
import type { RecordBatch } from "apache-arrow";
import { toSdkTable } from "lance-nd/internal";
import type { Codec, Contestant, ReadSum, WriteTo, Written } from "./contestant.js";
import { ndBatches, writeOptions } from "./lance-nd.js";
import { folderBytes } from "./measure.js";
import { chunkId, sumOf, type OceanData } from "./ocean-data.js";

const STATS_COLUMN = "__stats__:sst";

/** Raw lancedb SDK calls. */
export const rawLancedb: Contestant = {
  name: "raw lancedb",
  async prepare(data: OceanData, codec: Codec, stats: boolean): Promise<WriteTo> {
    const rows = ndBatch(data, codec, stats);
    return async (dir) => {
      const db = await lancedb.connect(dir);
      const table = await db.createTable("ocean", toSdkTable(rows), {
        storageOptions: { new_table_data_storage_version: "2.2" },
      });
      return reader(table, dir);
    };
  },
};

/**
 * The rows of `data` as one RecordBatch in the lance-nd table layout, as
 * lance-nd appends them (the codec's `lance-encoding:` keys on every leaf,
 * stats columns when `stats`), built with @lance-nd/format. Not timed.
 */
export function ndBatch(data: OceanData, codec: Codec, stats: boolean): RecordBatch {
  const batches = ndBatches(data);
  const { columnDefaults } = writeOptions(codec, stats);
  const schema = tableSchema(encodeSchema(batches), {
    stats,
    ...(columnDefaults === undefined ? {} : { columnDefaults }),
  });
  return encodeRows(batches, schema);
}

/**
 * Raw lancedb's reads of a table another contestant wrote (`<dir>/<name>.lance`):
 * lance-nd's own table, to tell lance-nd's work from the shape of its table
 * (fragments, encoding). Opened on a default connection, as raw users do.
 */
export async function rawReaderOf(dir: string, name: string): Promise<Written> {
  return reader(await (await lancedb.connect(dir)).openTable(name), dir);
}

function reader(table: lancedb.Table, dir: string): Written {
  const take = async (filter: string): Promise<ReadSum> => {
    const found = await table.query().select(["__global_attrs__"]).where(filter).withRowId().toArrow();
    const rowIds = found.batches.flatMap((b) => [...(b.getChild("_rowid")!.toArray() as BigUint64Array)]);
    if (rowIds.length === 0) return { sum: 0, chunks: 0 };
    const rows = await table.takeRowIds(rowIds).toArrow();
    return sumBatches(rows.batches);
  };
  return {
    async scan(): Promise<ReadSum> {
      const batches: RecordBatch[] = [];
      for await (const batch of table.query()) batches.push(batch as RecordBatch);
      return sumBatches(batches);
    },
    readChunk: (i: number) => take(`__global_attrs__.id = '${chunkId(i)}'`),
    async readTime(): Promise<ReadSum> {
      const result = await table.query().select(["time"]).toArrow();
      return sumBatches(result.batches as RecordBatch[], "time");
    },
    readHot: (threshold: number) => take(`\`${STATS_COLUMN}\`.max > ${threshold}`),
    bytes: () => folderBytes(dir),
    fragments: async () => (await table.stats()).fragmentStats.numFragments,
  };
}

/** Sums the values of nd column `name` over all rows of `batches`, straight from the Arrow buffers. */
export function sumBatches(batches: readonly RecordBatch[], name = "sst"): ReadSum {
  let sum = 0;
  let chunks = 0;
  for (const batch of batches) {
    const index = batch.schema.fields.findIndex((f) => f.name === name);
    const column = batch.data.children[index]!;
    const list = column.children[0]!;
    const items = list.children[0]!;
    // apache-arrow slices `valueOffsets` and `values` with the Data: index 0 is the Data's first element.
    const offsets = list.valueOffsets;
    const values = items.values as Float32Array | Float64Array;
    for (let r = 0; r < column.length; r++) {
      sum += sumOf(values.subarray(offsets[r]!, offsets[r + 1]!));
      chunks++;
    }
  }
  return { sum, chunks };
}
