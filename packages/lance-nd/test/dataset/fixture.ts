/**
 * The datasets of the dataset tests: sst(time 12, lat 10, lon 8) with a
 * descending latitude, an ascending longitude, a daily UTC timestamp time,
 * and rh(time, lat, lon) beside temp(time, level, lat, lon); written as
 * chunk rows with lance-nd's own `write`; and `recordReads`, which records
 * the SDK calls a view's reads make.
 */
import { Float32, TimestampMillisecond } from "apache-arrow";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { write } from "../../src/write/write.js";
import { vi } from "vitest";
import type { NdTable } from "../../src/table.js";

export const DAY = 86_400_000;
export const T0 = Date.UTC(2000, 0, 1);

/** sst(time 12, lat 10, lon 8): value 1000 t + 10 y + x, one null at (5, 5, 5); lat 45 ... -45 (descending), lon 0 ... 315 (ascending), daily time. */
export function sstBatch(id = "sst.nc"): NdRecordBatch {
  const [nt, ny, nx] = [12, 10, 8];
  const values = Array.from({ length: nt * ny * nx }, (_, i) => {
    const [t, y, x] = [Math.floor(i / (ny * nx)), Math.floor(i / nx) % ny, i % nx];
    return t === 5 && y === 5 && x === 5 ? null : 1000 * t + 10 * y + x;
  });
  return new NdRecordBatch(
    {
      sst: NdArray.from(values, { dims: { time: nt, lat: ny, lon: nx }, type: new Float32(), attrs: { units: "K" } }),
      time: NdArray.from(
        Array.from({ length: nt }, (_, t) => T0 + t * DAY),
        { dims: { time: nt }, type: new TimestampMillisecond("UTC") },
      ),
      lat: NdArray.from(
        Float64Array.from({ length: ny }, (_, y) => 45 - 10 * y),
        { dims: { lat: ny }, attrs: { units: "degrees_north" } },
      ),
      lon: NdArray.from(
        Float64Array.from({ length: nx }, (_, x) => 45 * x),
        { dims: { lon: nx } },
      ),
    },
    { id, title: "synthetic sst" },
  );
}

/** `batch` chunked along `sizes` and written as a new table (with stats unless `stats: false`). */
export async function writeChunked(
  uri: string,
  batch: NdRecordBatch,
  sizes: Record<string, number>,
  stats = true,
): Promise<NdTable> {
  return write(uri, Object.keys(sizes).length === 0 ? [batch] : chunk(batch, sizes), { stats });
}

/** temp(time 2, level 3, lat 4, lon 5) and rh(time, lat, lon) with a level coordinate: variables that do not span every dim. */
export function levelsBatch(): NdRecordBatch {
  const temp = Float32Array.from({ length: 2 * 3 * 4 * 5 }, (_, i) => i);
  const rh = Float32Array.from({ length: 2 * 4 * 5 }, (_, i) => -i);
  return new NdRecordBatch(
    {
      temp: NdArray.from(temp, { dims: { time: 2, level: 3, lat: 4, lon: 5 } }),
      rh: NdArray.from(rh, { dims: { time: 2, lat: 4, lon: 5 } }),
      level: NdArray.from(new Int32Array([1000, 850, 500]), { dims: { level: 3 } }),
    },
    { id: "levels.nc" },
  );
}

/**
 * Records what the pinned handle reads (the SDK calls run as usual): the
 * scans it starts (planning) and, per take, the columns (without
 * `__global_attrs__`) and the number of rows taken; `globalAttrTakes`
 * counts the takes that project `__global_attrs__`.
 */
export function recordReads(view: NdTable): {
  scans: number;
  takes: { columns: string[]; rows: number }[];
  globalAttrTakes: number;
} {
  const reads = { scans: 0, takes: [] as { columns: string[]; rows: number }[], globalAttrTakes: 0 };
  const sdk = view.lance.sdk;
  const take = sdk.takeRowIds.bind(sdk);
  vi.spyOn(sdk, "takeRowIds").mockImplementation((ids) => {
    const query = take(ids);
    const select = query.select.bind(query);
    query.select = (columns) => {
      const names = columns instanceof Map ? [...columns.keys()] : [...(columns as string[])];
      if (names.includes("__global_attrs__")) reads.globalAttrTakes++;
      reads.takes.push({ columns: names.filter((c) => c !== "__global_attrs__"), rows: ids.length });
      return select(columns);
    };
    return query;
  });
  const query = sdk.query.bind(sdk);
  vi.spyOn(sdk, "query").mockImplementation(() => {
    reads.scans++;
    return query();
  });
  return reads;
}
