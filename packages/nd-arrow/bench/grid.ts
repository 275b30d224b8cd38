/**
 * Grid operations on a 4 x 180 x 360 grid (time, lat, lon) against a plain
 * TypedArray copy of the same output bytes, measured in the same run:
 * broadcast lat(180) -> (time, lat, lon), flatten the batch to a table,
 * chunk it by { time: 1, lat: 90 } and assemble the chunks back. Best of
 * several repetitions after enough warm-up runs for the JIT to settle.
 *
 * Run: npx --yes pnpm@12.21.0 --filter @lance-nd/nd-arrow bench:grid
 */
import type { Vector } from "apache-arrow";
import { NdArray, NdRecordBatch, assemble, broadcast, chunk, flatten } from "@lance-nd/nd-arrow";

const TIME = 4;
const LAT = 180;
const LON = 360;
const CELLS = TIME * LAT * LON;
const REPS = 20;
const WARMUP = 50;

function best(fn: () => unknown): number {
  for (let i = 0; i < WARMUP; i++) fn();
  let min = Infinity;
  for (let i = 0; i < REPS; i++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

/** The best time of allocating `bytes` and `set`-ting them from a source of that size. */
function copyMs(bytes: number): number {
  const src = new Uint8Array(bytes).fill(7);
  return best(() => new Uint8Array(bytes).set(src));
}

function bytesOf(vector: Vector): number {
  return vector.data.reduce((sum, d) => sum + d.values.byteLength + (d.valueOffsets?.byteLength ?? 0), 0);
}

const sst = NdArray.from(
  Float32Array.from({ length: CELLS }, (_, i) => 270 + (i % 40)),
  { dims: { time: TIME, lat: LAT, lon: LON }, attrs: { units: "K" } },
);
const lat = NdArray.from(
  Float64Array.from({ length: LAT }, (_, i) => -89.5 + i),
  { dims: { lat: LAT } },
);
const lon = NdArray.from(
  Float64Array.from({ length: LON }, (_, i) => 0.5 + i),
  { dims: { lon: LON } },
);
const time = NdArray.from(
  Int32Array.from({ length: TIME }, (_, i) => i * 6),
  { dims: { time: TIME } },
);
const batch = new NdRecordBatch({ sst, time, lat, lon }, { id: "bench" });
const grid = batch.grid();

const rows: [string, number, number][] = [];

const broadcastOut = broadcast(lat, grid);
rows.push(["broadcast lat(180) -> time,lat,lon", best(() => broadcast(lat, grid)), bytesOf(broadcastOut.values)]);

const table = flatten(batch);
const shared = new Set(batch.arrays().flatMap(([, a]) => a.values.data.map((d) => d.values.buffer)));
const tableBytes = table.schema.names
  .map((name) => table.getChild(name)!)
  .filter((column) => !shared.has(column.data[0]!.values.buffer))
  .reduce((sum, column) => sum + bytesOf(column), 0);
rows.push(["flatten (4 columns x 259200 rows; sst shared)", best(() => flatten(batch)), tableBytes]);

/** Bytes of the values `batch` produced, leaving out arrays it shares with `source` (no copy made). */
function copiedBytes(result: NdRecordBatch, source: NdRecordBatch): number {
  let bytes = 0;
  for (const [name, array] of result.arrays()) if (array !== source.get(name)) bytes += bytesOf(array.values);
  return bytes;
}

const chunks = chunk(batch, { time: 1, lat: 90 });
const chunkBytes = chunks.reduce((sum, c) => sum + copiedBytes(c, batch), 0);
rows.push([
  `chunk { time: 1, lat: 90 } (${chunks.length} chunks)`,
  best(() => chunk(batch, { time: 1, lat: 90 })),
  chunkBytes,
]);

const back = assemble(chunks);
rows.push(["assemble (back to 4 x 180 x 360)", best(() => assemble(chunks)), copiedBytes(back, chunks[0]!)]);

console.log(`nd-arrow grid bench: ${TIME} x ${LAT} x ${LON} grid (${CELLS} cells), best of ${REPS}`);
console.log("operation                                      ms      copy ms   ratio   output bytes");
for (const [name, ms, bytes] of rows) {
  const base = copyMs(bytes);
  console.log(
    `${name.padEnd(46)} ${ms.toFixed(3).padStart(7)} ${base.toFixed(3).padStart(9)} ${(ms / base).toFixed(1).padStart(6)}x   ${bytes}`,
  );
}
