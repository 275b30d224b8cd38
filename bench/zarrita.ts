/**
 * Zarr v3 with zarrita and @zarrita/storage's FileSystemStore, as a zarrita
 * user writes it: a group with `sst` (chunks [4, 180, 360]) and the
 * coordinates as arrays of one chunk each, written with `zarr.set` and read
 * with `zarr.get`. Codecs: `bytes` (default), `bytes` + `zstd` level 3,
 * `bytes` + `numcodecs.shuffle` + `zstd` level 3.
 * Stats: a `sst_chunk_max` array beside `sst`, one value per chunk.
 */
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";
import { ATTRS, CHUNK_TIMES, CHUNK_VALUES, LAT, LON, sumOf, type OceanData } from "./ocean-data.js";
import { ZSTD_LEVEL, type Codec, type Contestant, type ReadSum, type WriteTo, type Written } from "./contestant.js";
import { folderBytes } from "./measure.js";

type Store = FileSystemStore;

/** The codec list of an array of `elementSize`-byte values for `codec`. */
export function zarrCodecs(codec: Codec, elementSize: number): zarr.CodecMetadata[] {
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  const zstd = { name: "zstd", configuration: { level: ZSTD_LEVEL, checksum: false } };
  const shuffle = { name: "numcodecs.shuffle", configuration: { elementsize: elementSize } };
  return codec === "default" ? [bytes] : codec === "zstd" ? [bytes, zstd] : [bytes, shuffle, zstd];
}

/** Zarr v3 through zarrita. */
export const zarrita: Contestant = {
  name: "zarrita",
  async prepare(data: OceanData, codec: Codec, stats: boolean): Promise<WriteTo> {
    return (dir) => writeZarr(data, codec, dir, stats);
  },
};

async function writeZarr(data: OceanData, codec: Codec, dir: string, stats: boolean): Promise<Written> {
  const root = zarr.root(new FileSystemStore(dir));
  await zarr.create(root, { attributes: { ...ATTRS.global } });
  const sst = await zarr.create(root.resolve("sst"), {
    shape: [data.times, LAT, LON],
    chunkShape: [CHUNK_TIMES, LAT, LON],
    dtype: "float32",
    codecs: zarrCodecs(codec, 4),
    dimensionNames: ["time", "lat", "lon"],
    attributes: { ...ATTRS.sst },
  });
  await zarr.set(sst, null, { data: data.sst, shape: [data.times, LAT, LON], stride: [LAT * LON, LON, 1] });
  const vector = async (
    name: string,
    values: Float32Array | Float64Array,
    dtype: "float32" | "float64",
    dim: string,
    attributes: Record<string, string>,
  ) => {
    const arr = await zarr.create(root.resolve(name), {
      shape: [values.length],
      chunkShape: [values.length],
      dtype,
      codecs: zarrCodecs(codec, values.BYTES_PER_ELEMENT),
      dimensionNames: [dim],
      attributes,
    });
    await zarr.set(arr, null, { data: values, shape: [values.length], stride: [1] } as never);
  };
  await vector("lat", data.lat, "float32", "lat", { ...ATTRS.lat });
  await vector("lon", data.lon, "float32", "lon", { ...ATTRS.lon });
  await vector("time", data.time, "float64", "time", { ...ATTRS.time });
  if (stats) await vector("sst_chunk_max", data.chunkMax, "float32", "chunk", {});
  return reader(root, data, stats);
}

async function reader(root: zarr.Location<Store>, data: OceanData, stats: boolean): Promise<Written> {
  const sst = await zarr.open(root.resolve("sst"), { kind: "array" });
  const time = await zarr.open(root.resolve("time"), { kind: "array" });
  const coords = [
    await zarr.open(root.resolve("lat"), { kind: "array" }),
    await zarr.open(root.resolve("lon"), { kind: "array" }),
    time,
  ];
  const chunkMax = stats ? await zarr.open(root.resolve("sst_chunk_max"), { kind: "array" }) : undefined;
  const chunk = async (i: number): Promise<number> => {
    const out = await zarr.get(sst, [zarr.slice(i * CHUNK_TIMES, (i + 1) * CHUNK_TIMES), null, null]);
    return sumOf(out.data as Float32Array);
  };
  return {
    async scan(): Promise<ReadSum> {
      const [all] = await Promise.all([zarr.get(sst), ...coords.map((arr) => zarr.get(arr))]);
      const values = all.data as Float32Array;
      let sum = 0;
      for (let i = 0; i < data.chunks; i++) sum += sumOf(values.subarray(i * CHUNK_VALUES, (i + 1) * CHUNK_VALUES));
      return { sum, chunks: data.chunks };
    },
    async readChunk(i: number): Promise<ReadSum> {
      return { sum: await chunk(i), chunks: 1 };
    },
    async readTime(): Promise<ReadSum> {
      return { sum: sumOf((await zarr.get(time)).data as Float64Array), chunks: 1 };
    },
    async readHot(threshold: number): Promise<ReadSum> {
      if (chunkMax === undefined) throw new Error("zarrita: written without stats");
      const max = (await zarr.get(chunkMax)).data as Float32Array;
      const hot = [...max.keys()].filter((i) => max[i]! > threshold);
      const sums = await Promise.all(hot.map(chunk));
      return { sum: sums.reduce((a, b) => a + b, 0), chunks: hot.length };
    },
    bytes: () => folderBytes(root.store.root),
  };
}
