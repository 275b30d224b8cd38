/**
 * Deterministic synthetic ocean data: a sea surface temperature field `sst`
 * (Float32, [time, lat, lon] = [T, 180, 360]) chunked by 4 time steps (one
 * chunk = 1,036,800 bytes), with `lat`, `lon` and `time` coordinates and
 * attributes. The field is smooth (latitude profile, seasons, zonal waves)
 * plus a little noise, so compression has something to find but does not
 * find everything. The same size always gives the same bytes.
 */

/** Latitudes, longitudes and time steps per chunk of the grid. */
export const LAT = 180;
export const LON = 360;
export const CHUNK_TIMES = 4;
/** Values in one chunk of `sst`. */
export const CHUNK_VALUES = CHUNK_TIMES * LAT * LON;
const MiB = 1024 * 1024;

/** Attributes of each variable and of the dataset, shared by every contestant. */
export const ATTRS = {
  sst: { units: "K", long_name: "sea surface temperature" },
  lat: { units: "degrees_north" },
  lon: { units: "degrees_east" },
  time: { units: "days since 2000-01-01" },
  global: { source: "lance-nd bench (synthetic)" },
} as const;

/** One generated dataset. */
export interface OceanData {
  /** Chunks (table rows) of `sst`: `times / CHUNK_TIMES`. */
  chunks: number;
  /** Time steps in all. */
  times: number;
  /** All `sst` values, row-major [time, lat, lon]; chunk `i` is one contiguous block. */
  sst: Float32Array;
  lat: Float32Array;
  lon: Float32Array;
  /** Days since 2000-01-01, one a day. */
  time: Float64Array;
  /** The largest `sst` value of each chunk (the stats a filter uses). */
  chunkMax: Float32Array;
  /** Sum of each chunk's values (Float64), to check what a reader returns. */
  chunkSum: Float64Array;
  /** A threshold on the chunk maximum that about one chunk in eight exceeds. */
  hotThreshold: number;
  /** The chunks whose maximum exceeds `hotThreshold`. */
  hotChunks: number;
  /** Bytes of `sst` values. */
  valueBytes: number;
}

/** The id (global attribute) of chunk `i`: `chunk-000017`. */
export function chunkId(i: number): string {
  return `chunk-${String(i).padStart(6, "0")}`;
}

/** The values of chunk `i` (a view, no copy). */
export function chunkValues(data: OceanData, i: number): Float32Array {
  return data.sst.subarray(i * CHUNK_VALUES, (i + 1) * CHUNK_VALUES);
}

/**
 * A dataset of about `mib` MiB of `sst` values (at least one chunk).
 *
 * @example
 * const data = oceanData(32); // 32 chunks, 128 time steps
 */
export function oceanData(mib: number): OceanData {
  const chunks = Math.max(1, Math.round((mib * MiB) / (CHUNK_VALUES * 4)));
  const times = chunks * CHUNK_TIMES;
  const lat = Float32Array.from({ length: LAT }, (_, j) => -89.5 + j);
  const lon = Float32Array.from({ length: LON }, (_, k) => 0.5 + k);
  const time = Float64Array.from({ length: times }, (_, t) => t);
  // Separable terms, so the inner loop is additions only.
  const latMean = Float64Array.from(lat, (y) => 271.5 + 29 * Math.cos((y * Math.PI) / 180) ** 2);
  const latWave = Float64Array.from(lat, (y) => 1.5 * Math.cos((y * Math.PI) / 180));
  const hemisphere = Float64Array.from(lat, (y) => Math.sin((y * Math.PI) / 180));
  const lonWave = Float64Array.from(lon, (x) => Math.sin((3 * x * Math.PI) / 180));
  const sst = new Float32Array(times * LAT * LON);
  let seed = 0x2545f491;
  let i = 0;
  for (let t = 0; t < times; t++) {
    const season = 3 * Math.sin((2 * Math.PI * t) / 365.25) + 0.8 * Math.sin((2 * Math.PI * t) / 97);
    for (let j = 0; j < LAT; j++) {
      const base = latMean[j]! + season * hemisphere[j]!;
      const wave = latWave[j]!;
      for (let k = 0; k < LON; k++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        sst[i++] = base + wave * lonWave[k]! + 0.25 * (seed / 4294967296 - 0.5);
      }
    }
  }
  const chunkMax = new Float32Array(chunks);
  const chunkSum = new Float64Array(chunks);
  for (let c = 0; c < chunks; c++) {
    const values = sst.subarray(c * CHUNK_VALUES, (c + 1) * CHUNK_VALUES);
    chunkMax[c] = maxOf(values);
    chunkSum[c] = sumOf(values);
  }
  const hotThreshold = [...chunkMax].sort((a, b) => b - a)[Math.floor(chunks / 8)]!;
  const hotChunks = chunkMax.reduce((n, m) => n + (m > hotThreshold ? 1 : 0), 0);
  return {
    chunks,
    times,
    sst,
    lat,
    lon,
    time,
    chunkMax,
    chunkSum,
    hotThreshold,
    hotChunks,
    valueBytes: sst.byteLength,
  };
}

/**
 * Sum of `values` in a Float64 accumulator: how every contestant touches what
 * it read. One loop per array type, so each stays monomorphic (a shared
 * loop over both types runs at a third of the speed).
 */
export function sumOf(values: Float32Array | Float64Array): number {
  return values instanceof Float32Array ? sumFloat32(values) : sumFloat64(values);
}

function sumFloat32(values: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum;
}

function sumFloat64(values: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum;
}

function maxOf(values: Float32Array): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}
