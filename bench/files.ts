/**
 * The physical reference: each chunk's Float32 bytes in its own file,
 * written and read with `node:fs` (zstd and shuffle: zarrita's codecs, zstd
 * being the numcodecs WebAssembly build, since Node 20's zlib has no zstd).
 * No metadata, no index: the floor a store with a file per chunk can reach.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { registry } from "zarrita";
import { CHUNK_VALUES, chunkValues, sumOf, type OceanData } from "./ocean-data.js";
import { ZSTD_LEVEL, type Codec, type Contestant, type ReadSum, type WriteTo, type Written } from "./contestant.js";
import { folderBytes } from "./measure.js";

interface BytesCodec {
  encode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

const identity: BytesCodec = { encode: (bytes) => bytes, decode: (bytes) => bytes };

/** The bytes codec of `codec` for values of `elementSize` bytes, from zarrita's codec registry. */
export async function bytesCodec(codec: Codec, elementSize: 4 | 8): Promise<BytesCodec> {
  if (codec === "default") return identity;
  const dataType: "float32" | "float64" = elementSize === 8 ? "float64" : "float32";
  const meta = { dataType, shape: [0], codecs: [], fillValue: null };
  const zstd = (await registry.get("zstd")!()).fromConfig({ level: ZSTD_LEVEL, checksum: false }, meta) as BytesCodec;
  if (codec === "zstd") return zstd;
  const shuffle = (await registry.get("numcodecs.shuffle")!()).fromConfig(
    { elementsize: elementSize },
    meta,
  ) as BytesCodec;
  return {
    encode: async (bytes) => zstd.encode(await shuffle.encode(bytes)),
    decode: async (bytes) => shuffle.decode(await zstd.decode(bytes)),
  };
}

/** Raw chunk files with `node:fs`. */
export const files: Contestant = {
  name: "files (fs)",
  async prepare(data: OceanData, codec: Codec, stats: boolean): Promise<WriteTo> {
    const codecs = { 4: await bytesCodec(codec, 4), 8: await bytesCodec(codec, 8) };
    return (dir) => writeFiles(data, codecs, dir, stats);
  },
};

async function writeFiles(
  data: OceanData,
  codecs: Record<4 | 8, BytesCodec>,
  dir: string,
  stats: boolean,
): Promise<Written> {
  const put = async (name: string, values: Float32Array | Float64Array) => {
    const encoded = await codecs[values.BYTES_PER_ELEMENT as 4 | 8].encode(
      new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    );
    fs.writeFileSync(path.join(dir, name), encoded);
  };
  fs.mkdirSync(path.join(dir, "sst"));
  for (let i = 0; i < data.chunks; i++) await put(`sst/${i}`, chunkValues(data, i));
  await put("lat", data.lat);
  await put("lon", data.lon);
  await put("time", data.time);
  if (stats) await put("sst_max", data.chunkMax);

  const get = async (name: string, elementSize: 4 | 8 = 4): Promise<Uint8Array> =>
    codecs[elementSize].decode(fs.readFileSync(path.join(dir, name)));
  const chunk = async (i: number): Promise<number> => sumOf(float32(await get(`sst/${i}`), CHUNK_VALUES));
  return {
    async scan(): Promise<ReadSum> {
      let sum = 0;
      for (let i = 0; i < data.chunks; i++) sum += await chunk(i);
      await Promise.all([get("lat"), get("lon"), get("time", 8)]);
      return { sum, chunks: data.chunks };
    },
    async readChunk(i: number): Promise<ReadSum> {
      return { sum: await chunk(i), chunks: 1 };
    },
    async readTime(): Promise<ReadSum> {
      const bytes = await get("time", 8);
      return { sum: sumOf(float64(bytes, data.times)), chunks: 1 };
    },
    async readHot(threshold: number): Promise<ReadSum> {
      const max = float32(await get("sst_max"), data.chunks);
      let sum = 0;
      let chunks = 0;
      for (let i = 0; i < max.length; i++) {
        if (max[i]! > threshold) {
          sum += await chunk(i);
          chunks++;
        }
      }
      return { sum, chunks };
    },
    bytes: () => folderBytes(dir),
  };
}

/** `length` Float32 values over `bytes` (copied only when the bytes are not 4-aligned). */
function float32(bytes: Uint8Array, length: number): Float32Array {
  return bytes.byteOffset % 4 === 0
    ? new Float32Array(bytes.buffer, bytes.byteOffset, length)
    : new Float32Array(bytes.slice().buffer, 0, length);
}

/** `length` Float64 values over `bytes` (copied only when the bytes are not 8-aligned). */
function float64(bytes: Uint8Array, length: number): Float64Array {
  return bytes.byteOffset % 8 === 0
    ? new Float64Array(bytes.buffer, bytes.byteOffset, length)
    : new Float64Array(bytes.slice().buffer, 0, length);
}
