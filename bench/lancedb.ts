/**
 * Raw `@lancedb/lancedb`: the same rows in the same `nd_arrow.array` layout,
 * built straight from typed arrays (no nd-arrow codec, no checks) and handed
 * to the SDK in one `createTable`; read with `query()` and the two-step point
 * read (`_rowid`s of the matching rows, then `takeRowIds`), the fastest raw
 * way (packages/lance-nd/SDK-NOTES.md section 5). The ceiling for
 * lance-nd's own overhead. Building the Arrow batch is not timed.
 */
import * as lancedb from "@lancedb/lancedb";
import * as arrow from "apache-arrow";
import type { Data, RecordBatch } from "apache-arrow";
import { toSdkTable } from "lance-nd/internal";
import { batchOf, globalAttrsData, globalAttrsType, ndData, ndField, ndType, type NdRow } from "../packages/lance-nd/test/lance/nd-rows.js";
import { ZSTD_LEVEL, type Codec, type Contestant, type ReadSum, type WriteTo, type Written } from "./contestant.js";
import { folderBytes } from "./measure.js";
import { ATTRS, CHUNK_TIMES, LAT, LON, chunkId, chunkValues, sumOf, type OceanData } from "./ocean-data.js";

const STATS_COLUMN = "__stats__:sst";

/** Raw lancedb SDK calls. */
export const rawLancedb: Contestant = {
  name: "raw lancedb",
  async prepare(data: OceanData, codec: Codec, stats: boolean): Promise<WriteTo> {
    const rows = ndBatch(data, codec, stats);
    return async (dir) => {
      const db = await lancedb.connect(dir);
      const table = await db.createTable("ocean", toSdkTable(rows), { storageOptions: { new_table_data_storage_version: "2.2" } });
      return reader(table, dir);
    };
  },
};

/** The rows of `data` as one RecordBatch in the lance-nd table layout (the codec's `lance-encoding:` keys on every values leaf). */
export function ndBatch(data: OceanData, codec: Codec, stats: boolean): RecordBatch {
  const leaf: Record<string, string> =
    codec === "default"
      ? {}
      : {
          "lance-encoding:compression": "zstd",
          "lance-encoding:compression-level": String(ZSTD_LEVEL),
          ...(codec === "shuffle+zstd" ? { "lance-encoding:bss": "on" } : {}),
        };
  const ids = Array.from({ length: data.chunks }, (_, i) => i);
  const column = (name: keyof typeof ATTRS, type: arrow.Float32 | arrow.Float64, row: (i: number) => NdRow) => {
    const ndt = ndType(type, Object.keys(ATTRS[name]), leaf);
    return { field: ndField(name, ndt), data: ndData(ndt, ids.map(row)) };
  };
  const columns = [
    column("sst", new arrow.Float32(), (i) => ({
      values: chunkValues(data, i),
      dims: [["time", CHUNK_TIMES], ["lat", LAT], ["lon", LON]],
      attrs: { ...ATTRS.sst },
    })),
    column("time", new arrow.Float64(), (i) => ({ values: data.time.subarray(i * CHUNK_TIMES, (i + 1) * CHUNK_TIMES), dims: [["time", CHUNK_TIMES]], attrs: { ...ATTRS.time } })),
    column("lat", new arrow.Float32(), () => ({ values: data.lat, dims: [["lat", LAT]], attrs: { ...ATTRS.lat } })),
    column("lon", new arrow.Float32(), () => ({ values: data.lon, dims: [["lon", LON]], attrs: { ...ATTRS.lon } })),
  ];
  const gaType = globalAttrsType(["id", "source"]);
  const fields = [...columns.map((c) => c.field), new arrow.Field("__global_attrs__", gaType, true)];
  const datas: Data[] = [...columns.map((c) => c.data), globalAttrsData(gaType, ids.map((i) => ({ id: chunkId(i), ...ATTRS.global })))];
  if (stats) {
    const statsType = new arrow.Struct([new arrow.Field("min", new arrow.Float32(), true), new arrow.Field("max", new arrow.Float32(), true)]);
    const min = Float32Array.from(ids, (i) => chunkValues(data, i).reduce((a, b) => Math.min(a, b), Infinity));
    fields.push(new arrow.Field(STATS_COLUMN, statsType, true));
    datas.push(
      arrow.makeData({
        type: statsType,
        length: data.chunks,
        children: [arrow.makeData({ type: new arrow.Float32(), length: data.chunks, data: min }), arrow.makeData({ type: new arrow.Float32(), length: data.chunks, data: data.chunkMax })],
      }),
    );
  }
  return batchOf(fields, datas, { "lance_nd:format": "1", ...(stats ? { "lance_nd:stats": "true" } : {}) });
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
