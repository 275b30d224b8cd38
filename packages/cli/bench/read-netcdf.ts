/**
 * Import speed, best of several interleaved runs:
 * - netCDF-4: readNetcdf versus h5wasm alone reading the same variables
 *   (the goal: within 1.5x);
 * - netCDF-3: readNetcdf versus reading the file's bytes (fs.readFile);
 * - the whole import (readNetcdf, then lance-nd `write` of the row into a new
 *   local table, as `lance-nd import` does) versus h5wasm alone.
 *
 *   node --conditions=@lance-nd/source --import tsx bench/read-netcdf.ts [MiB]
 *
 * The files (default 256 MiB of Float32 sst) are made once in the temporary
 * folder (lance-nd-bench/), outside the repository: the netCDF-4 one with
 * writeNetcdf4, the netCDF-3 one by hand (one big-endian float variable).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { write } from "lance-nd";
import { loadH5wasm } from "../src/netcdf/h5wasm.js";
import { readNetcdf } from "../src/netcdf/read.js";
import { writeNetcdf4 } from "../src/netcdf/write.js";

const MIB = Number(process.argv[2] ?? 256);
const RUNS = 5;
const LAT = 720;
const LON = 1440;
const TIMES = Math.max(1, Math.round((MIB * 2 ** 20) / (4 * LAT * LON)));
const dataDir = join(tmpdir(), "lance-nd-bench");
const path = join(dataDir, `sst-${TIMES}x${LAT}x${LON}.nc`);
const classicPath = join(dataDir, `sst-${TIMES}x${LAT}x${LON}-classic.nc`);

async function makeFile(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const sst = new Float32Array(TIMES * LAT * LON);
  for (let i = 0; i < sst.length; i++) sst[i] = 15 + 10 * Math.sin(i * 1e-3);
  const axis = (n: number, from: number, step: number): Float32Array => Float32Array.from({ length: n }, (_, i) => from + i * step);
  const batch = new NdRecordBatch({
    time: NdArray.from(Float64Array.from({ length: TIMES }, (_, i) => i), { dims: { time: TIMES }, attrs: { units: "days since 2000-01-01" } }),
    lat: NdArray.from(axis(LAT, -89.875, 0.25), { dims: { lat: LAT }, attrs: { units: "degrees_north" } }),
    lon: NdArray.from(axis(LON, -179.875, 0.25), { dims: { lon: LON }, attrs: { units: "degrees_east" } }),
    sst: NdArray.from(sst, { dims: { time: TIMES, lat: LAT, lon: LON }, attrs: { units: "degC" } }),
  });
  await writeNetcdf4(batch, path);
}

/** A CDF-1 file with one variable sst(time, lat, lon) float, written by hand. */
function makeClassicFile(): void {
  const words: number[] = [];
  const name = (s: string): void => {
    words.push(s.length);
    const bytes = [...s].map((c) => c.charCodeAt(0));
    while (bytes.length % 4 !== 0) bytes.push(0);
    for (let i = 0; i < bytes.length; i += 4) words.push(((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0);
  };
  words.push(0x43444601, 0, 10, 3);
  for (const [dim, size] of [["time", TIMES], ["lat", LAT], ["lon", LON]] as const) {
    name(dim);
    words.push(size);
  }
  words.push(0, 0, 11, 1);
  name("sst");
  words.push(3, 0, 1, 2, 0, 0, 5, TIMES * LAT * LON * 4, 0);
  const headerBytes = words.length * 4;
  words[words.length - 1] = headerBytes;
  const file = new Uint8Array(headerBytes + TIMES * LAT * LON * 4);
  const view = new DataView(file.buffer);
  words.forEach((w, i) => view.setUint32(4 * i, w));
  for (let i = 0; i < TIMES * LAT * LON; i++) view.setFloat32(headerBytes + 4 * i, 15 + 10 * Math.sin(i * 1e-3));
  writeFileSync(classicPath, file);
}

async function h5wasmAlone(): Promise<number> {
  const h5 = await loadH5wasm();
  const file = new h5.File(path, "r");
  let n = 0;
  for (const name of ["time", "lat", "lon", "sst"]) {
    const dataset = file.get(name) as { value: ArrayLike<number> };
    n += dataset.value.length;
  }
  file.close();
  return n;
}

async function lanceNdRead(): Promise<number> {
  const { batch } = await readNetcdf(path);
  return batch.arrays().reduce((n, [, a]) => n + a.size, 0);
}

/** Best time of each, runs interleaved so both see the same heap and cache state. */
async function bestOf(runs: (() => Promise<number>)[]): Promise<number[]> {
  const fastest = runs.map(() => Number.POSITIVE_INFINITY);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, run] of runs.entries()) {
      const t0 = performance.now();
      await run();
      fastest[k] = Math.min(fastest[k]!, performance.now() - t0);
    }
  }
  return fastest;
}

if (!existsSync(path)) await makeFile();
if (!existsSync(classicPath)) makeClassicFile();
await h5wasmAlone(); // load the wasm module outside the timings
const [base = 0, ours = 0] = await bestOf([h5wasmAlone, lanceNdRead]);
console.log(`file: ${path} (${TIMES} x ${LAT} x ${LON} Float32 sst, ${MIB} MiB)`);
console.log(`h5wasm alone (baseline): ${base.toFixed(0)} ms`);
console.log(`readNetcdf:              ${ours.toFixed(0)} ms  ratio ${(ours / base).toFixed(2)}x (goal <= 1.5x)`);

const [bytes = 0, classic = 0] = await bestOf([
  async () => (await readFile(classicPath)).length,
  async () => (await readNetcdf(classicPath)).batch.get("sst")!.size,
]);
console.log(`netCDF-3 ${classicPath}`);
console.log(`fs.readFile (baseline):  ${bytes.toFixed(0)} ms`);
console.log(`readNetcdf:              ${classic.toFixed(0)} ms  ratio ${(classic / bytes).toFixed(2)}x`);

// The whole import: read the file, write it as one row of a new table.
const tables = mkdtempSync(join(tmpdir(), "lance-nd-import-bench-"));
let imports = 0;
const [base2 = 0, imported = 0] = await bestOf([
  h5wasmAlone,
  async () => {
    const { batch } = await readNetcdf(path);
    const row = new NdRecordBatch(batch.arrays(), { id: "sst.nc" });
    await write(join(tables, `t${imports++}.lance`), [row], { stats: true });
    return row.get("sst")!.size;
  },
]);
rmSync(tables, { recursive: true, force: true });
console.log(`import (readNetcdf + lance-nd write, stats on): ${imported.toFixed(0)} ms  ratio ${(imported / base2).toFixed(2)}x to h5wasm alone (${base2.toFixed(0)} ms)`);
