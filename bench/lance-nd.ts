/**
 * lance-nd, as its users call it: one NdRecordBatch per chunk (`sst` plus
 * the `time`, `lat`, `lon` coordinates, attributes, global attributes `id`
 * and `source`), written with `write` (codecs: `columnDefaults`; stats:
 * `stats: true`) then `indexGlobalAttr(table, "id")` (both timed), and read with `scan`: everything, one chunk by
 * `__global_attrs__.id`, the `time` coordinate alone (`project`), and the
 * chunks a stats filter selects (`stat("sst").max.gt(x)`). Building the
 * batches (views of the data, no copy) is not timed; encoding is.
 */
import * as path from "node:path";
import { CHUNK_OFFSET, NdArray, NdRecordBatch, attr, type NdRecordBatch as Row } from "@lance-nd/nd-arrow";
import type { Vector } from "apache-arrow";
import { col, indexGlobalAttr, scan, stat, write, type NdScan, type NdTable, type WriteOptions } from "lance-nd";
import { ZSTD_LEVEL, type Codec, type Contestant, type ReadSum, type WriteTo, type Written } from "./contestant.js";
import { folderBytes } from "./measure.js";
import { ATTRS, CHUNK_TIMES, LAT, LON, chunkId, chunkValues, sumOf, type OceanData } from "./ocean-data.js";

/**
 * The rows of `data` as one chunked dataset `id`: each chunk placed by its
 * `chunk_offset`, with the suite's `source` global attribute.
 */
export function datasetRows(data: OceanData, id: string): NdRecordBatch[] {
  return ndBatches(data).map((row, i) =>
    row.withGlobalAttrs(
      new Map([
        ["id", attr.utf8(id)],
        ["source", attr.utf8(ATTRS.global.source)],
        [CHUNK_OFFSET, attr.uint32([i * CHUNK_TIMES, 0, 0])],
      ]),
    ),
  );
}

/** The rows of `data`: one nd record batch per chunk. */
export function ndBatches(data: OceanData): NdRecordBatch[] {
  return Array.from(
    { length: data.chunks },
    (_, i) =>
      new NdRecordBatch(
        {
          sst: NdArray.from(chunkValues(data, i), {
            dims: { time: CHUNK_TIMES, lat: LAT, lon: LON },
            attrs: { ...ATTRS.sst },
          }),
          time: NdArray.from(data.time.subarray(i * CHUNK_TIMES, (i + 1) * CHUNK_TIMES), {
            dims: { time: CHUNK_TIMES },
            attrs: { ...ATTRS.time },
          }),
          lat: NdArray.from(data.lat, { dims: { lat: LAT }, attrs: { ...ATTRS.lat } }),
          lon: NdArray.from(data.lon, { dims: { lon: LON }, attrs: { ...ATTRS.lon } }),
        },
        { id: chunkId(i), ...ATTRS.global },
      ),
  );
}

/** The write options of lance-nd for `codec` and `stats`. */
export function writeOptions(codec: Codec, stats: boolean): WriteOptions {
  return {
    ...(codec === "default"
      ? {}
      : {
          columnDefaults: {
            compression: { codec: "zstd", level: ZSTD_LEVEL },
            ...(codec === "shuffle+zstd" ? { bss: "on" as const } : {}),
          },
        }),
    ...(stats ? { stats: true } : {}),
  };
}

/** The lance-nd library. */
export const lanceNd: Contestant = {
  name: "lance-nd",
  async prepare(data: OceanData, codec: Codec, stats: boolean): Promise<WriteTo> {
    const batches = ndBatches(data);
    const options = writeOptions(codec, stats);
    return async (dir) => {
      const table = await write(path.join(dir, "ocean.lance"), batches, options);
      // Its users read chunks by id: the key index makes that lookup cost the same at any number of fragments.
      await indexGlobalAttr(table, "id");
      return reader(table, dir);
    };
  },
};

function reader(table: NdTable, dir: string): Written {
  return {
    scan: () => sumRows(scan(table)),
    readChunk: (i: number) => sumRows(scan(table).filterExpr(col("__global_attrs__.id").eq(chunkId(i)))),
    readTime: () => sumRows(scan(table).project(["time"]), "time"),
    readHot: (threshold: number) => sumRows(scan(table).filterExpr(stat("sst").max.gt(threshold))),
    bytes: () => folderBytes(dir),
    compact: async () => {
      await table.compact();
    },
  };
}

/** Sums variable `name` over the rows of a scan. */
async function sumRows(rows: NdScan, name = "sst"): Promise<ReadSum> {
  let sum = 0;
  let chunks = 0;
  for await (const row of rows) {
    sum += sumVector(variable(row, name).values);
    chunks++;
  }
  return { sum, chunks };
}

function variable(row: Row, name: string): NdArray {
  const array = row.get(name);
  if (array === undefined) throw new Error(`lance-nd: a row without "${name}"`);
  return array;
}

/**
 * Sums a numeric vector from its typed arrays (decoded values are views of
 * the scan's buffers). apache-arrow keeps `values` of a sliced Data already
 * sliced: element 0 is the first value, whatever `offset` says.
 */
export function sumVector(vector: Vector): number {
  let sum = 0;
  for (const data of vector.data) sum += sumOf((data.values as Float32Array | Float64Array).subarray(0, data.length));
  return sum;
}
