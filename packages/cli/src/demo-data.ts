/**
 * A realistic, deterministic demo dataset: monthly sea surface temperature
 * on a global grid, with coordinates, CF attributes and land masked as NaN.
 */
import { attr, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { CliError } from "./errors.js";

/** Options of {@link oceanDemo}. */
export interface OceanDemoOptions {
  /** Number of monthly time steps, from January 2000. Default 12. */
  times?: number;
  /** Number of latitudes (cell centres from south to north). Default 90 (2 degrees). */
  lat?: number;
  /** Number of longitudes (cell centres from -180 eastwards). Default 180 (2 degrees). */
  lon?: number;
  /** Seed of the weather (the smooth noise). Default 42. */
  seed?: number;
}

/** Rough continents as ellipses: centre latitude, centre longitude, radii in degrees. */
const LAND: readonly (readonly [number, number, number, number])[] = [
  [47, -100, 22, 30], // North America
  [-14, -60, 24, 14], // South America
  [6, 20, 30, 20], // Africa
  [52, 85, 18, 60], // Eurasia
  [-25, 134, 10, 17], // Australia
  [-90, 0, 18, 720], // Antarctica
];

const DEG = Math.PI / 180;
const FREEZING = -1.8; // sea water freezes at about -1.8 degC

/**
 * Monthly sea surface temperature `sst(time, lat, lon)` in degrees Celsius
 * (Float32): warm at the equator, cold at the poles, a seasonal cycle that is
 * opposite in the two hemispheres, smooth seeded "weather", and NaN over six
 * land blobs. Coordinates `time` (Float64, days since 2000-01-01, mid-month),
 * `lat`, `lon` (Float32 cell centres) carry CF attributes; global attributes
 * are `title`, `institution`, `source`, `Conventions` ("CF-1.8"). The same
 * options give the same values.
 *
 * Throws `CliError` `InvalidArgument` for sizes that are not positive integers.
 *
 * @example
 * const batch = oceanDemo({ times: 4 });
 * batch.get("sst")?.shape; // [4, 90, 180]
 */
export function oceanDemo(options: OceanDemoOptions = {}): NdRecordBatch {
  const { times = 12, lat: nLat = 90, lon: nLon = 180, seed = 42 } = options;
  for (const [name, n] of [
    ["times", times],
    ["lat", nLat],
    ["lon", nLon],
  ] as const) {
    if (!Number.isInteger(n) || n < 1) {
      throw new CliError("InvalidArgument", `oceanDemo: ${name} must be a positive integer, got ${n}`);
    }
  }
  const lat = Float32Array.from({ length: nLat }, (_, i) => -90 + ((i + 0.5) * 180) / nLat);
  const lon = Float32Array.from({ length: nLon }, (_, j) => -180 + ((j + 0.5) * 360) / nLon);
  const time = Float64Array.from({ length: times }, (_, k) => Math.round(k * 30.4375 + 15));

  const waves = weather(seed);
  const land = landMask(lat, lon, waves);
  const sst = new Float32Array(times * nLat * nLon);
  // Per latitude: the zonal mean and the seasonal amplitude (opposite signs in the hemispheres).
  const zonal = Float64Array.from(lat, (y) => FREEZING + 30 * Math.cos(y * DEG) ** 2 - 2 * Math.sin(y * DEG) ** 4);
  const season = Float64Array.from(lat, (y) => 4 * Math.sin(y * DEG) * Math.cos(y * DEG) ** 0.5);
  for (let k = 0; k < times; k++) {
    const phase = Math.cos((2 * Math.PI * (k - 7)) / 12); // warmest in the north in August
    for (let i = 0; i < nLat; i++) {
      const base = zonal[i]! + season[i]! * phase;
      const row = (k * nLat + i) * nLon;
      for (let j = 0; j < nLon; j++) {
        if (land[i * nLon + j]) {
          sst[row + j] = Number.NaN;
          continue;
        }
        const noise = waves(lat[i]!, lon[j]!, k) * Math.cos(lat[i]! * DEG);
        sst[row + j] = Math.max(FREEZING, base + 2.2 * noise);
      }
    }
  }

  return new NdRecordBatch(
    {
      time: NdArray.from(time, {
        dims: { time: times },
        attrs: { units: "days since 2000-01-01", calendar: "standard", standard_name: "time", axis: "T" },
      }),
      lat: NdArray.from(lat, {
        dims: { lat: nLat },
        attrs: { units: "degrees_north", standard_name: "latitude", long_name: "latitude", axis: "Y" },
      }),
      lon: NdArray.from(lon, {
        dims: { lon: nLon },
        attrs: { units: "degrees_east", standard_name: "longitude", long_name: "longitude", axis: "X" },
      }),
      sst: NdArray.from(sst, {
        dims: { time: times, lat: nLat, lon: nLon },
        attrs: {
          units: "degC",
          long_name: "sea surface temperature",
          standard_name: "sea_surface_temperature",
          valid_range: attr.float32([-2, 35]),
        },
      }),
    },
    {
      title: "lance-nd demo: monthly sea surface temperature",
      institution: "lance-nd",
      source: `synthetic (oceanDemo, seed ${seed})`,
      Conventions: "CF-1.8",
    },
  );
}

/** Smooth noise in about [-1, 1]: a seeded sum of slow waves drifting east over the months. */
function weather(seed: number): (lat: number, lon: number, month: number) => number {
  // pure-rand's xoroshiro128+: uniform numbers in [0, 1), the same for the same seed.
  const generator = xoroshiro128plus(seed);
  const random = () => uniformFloat64(generator);
  const waves = Array.from({ length: 8 }, () => ({
    kLon: 1 + Math.floor(random() * 8),
    kLat: 1 + Math.floor(random() * 6),
    phase: random() * 2 * Math.PI,
    drift: (random() - 0.5) * 0.8,
    amplitude: 0.4 + random() * 0.6,
  }));
  const total = waves.reduce((n, w) => n + w.amplitude, 0) / 2;
  return (lat, lon, month) => {
    let sum = 0;
    for (const w of waves) {
      sum += w.amplitude * Math.sin(w.kLon * lon * DEG + w.kLat * 2 * lat * DEG + w.phase + w.drift * month);
    }
    return sum / total;
  };
}

/** 1 where a cell is land: inside a continent ellipse, with coasts roughened by the noise. */
function landMask(
  lat: Float32Array,
  lon: Float32Array,
  waves: (lat: number, lon: number, month: number) => number,
): Uint8Array {
  const mask = new Uint8Array(lat.length * lon.length);
  for (let i = 0; i < lat.length; i++) {
    for (let j = 0; j < lon.length; j++) {
      const y = lat[i]!;
      const x = lon[j]!;
      const coast = 1 + 0.3 * waves(y * 4, x * 4, 0);
      for (const [cy, cx, ry, rx] of LAND) {
        const dx = ((((x - cx) % 360) + 540) % 360) - 180;
        if (((y - cy) / ry) ** 2 + (dx / rx) ** 2 < coast) {
          mask[i * lon.length + j] = 1;
          break;
        }
      }
    }
  }
  return mask;
}
