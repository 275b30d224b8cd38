/**
 * The codecs of served chunks (README "Serving as Zarr"): none, or zlib's
 * deflate at level 1, which every Zarr v2 reader has as `zlib` (numcodecs)
 * and Zarr v3 as `gzip` (the same deflate with gzip's header). Compression
 * runs on libuv's thread pool, off the event loop a server answers on.
 */
import { promisify } from "node:util";
import { deflate, gzip } from "node:zlib";
import type { Compression } from "@lance-nd/zarr/encoding";
import { ZLIB_LEVEL, type StoreSettings } from "./options.js";

const deflateAsync = promisify(deflate);
const gzipAsync = promisify(gzip);

/** The compression the metadata names for `settings`. */
export function compressionOf(settings: StoreSettings): Compression {
  return settings.codec === "zlib" ? { codec: "zlib", level: ZLIB_LEVEL } : { codec: "none" };
}

/** `bytes` encoded as a chunk of `settings` (v2 zlib, v3 gzip, or as they are). */
export async function encodeChunk(bytes: Uint8Array, settings: StoreSettings): Promise<Uint8Array> {
  if (settings.codec === "none") return bytes;
  const encoded = await (settings.zarrVersion === 2 ? deflateAsync : gzipAsync)(bytes, { level: ZLIB_LEVEL });
  return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}
