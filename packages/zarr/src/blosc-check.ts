/**
 * Blosc chunks checked against their own header (README "Reading"): a
 * blosc frame records its compressed size (`cbytes`, bytes 12-15) in its
 * 16-byte header, and the decoder reads past the bytes a truncated chunk
 * holds without a word (zarr-python too). A chunk whose length is not its
 * header's `cbytes` is refused ({@link DamagedBloscChunk}, which
 * `withCheckedChunks` reports naming the array and the chunk). The chunks
 * that pass decode on worker threads where they can (blosc-pool.ts).
 */
import * as zarr from "zarrita";
import type { CodecMetadata } from "zarrita";
import { bloscPool } from "./blosc-pool.js";

/** The codec name blosc chunks are read under, checked. */
const CHECKED_BLOSC = "lance-nd.checked-blosc";

/** A blosc chunk whose bytes are not what its header says. */
export class DamagedBloscChunk extends Error {
  override readonly name = "DamagedBloscChunk";
}

/** Bytes of a blosc header. */
const HEADER_BYTES = 16;

/**
 * The smallest chunk sent to the blosc pool: a smaller one (a coordinate,
 * read while the first worker still loads) decodes sooner on this thread.
 */
const POOLED_BYTES = 64 * 1024;

/**
 * `codecs` with blosc (v3 `blosc`, v2 `numcodecs.blosc`, also inside a
 * sharding codec) read through the checked codec, registered on first use;
 * the blosc pool's first worker starts loading.
 */
export function checkedBlosc(codecs: CodecMetadata[]): CodecMetadata[] {
  return codecs.map((codec) => {
    if (codec.name === "blosc" || codec.name === "numcodecs.blosc") {
      if (!zarr.registry.has(CHECKED_BLOSC)) zarr.registry.set(CHECKED_BLOSC, () => CheckedBloscCodec as never);
      bloscPool()?.warm();
      return { ...codec, name: CHECKED_BLOSC };
    }
    const inner = (codec.configuration as { codecs?: unknown } | undefined)?.codecs;
    if (codec.name !== "sharding_indexed" || !Array.isArray(inner)) return codec;
    return { ...codec, configuration: { ...codec.configuration, codecs: checkedBlosc(inner as CodecMetadata[]) } };
  });
}

interface BytesCodec {
  encode(bytes: Uint8Array): Promise<Uint8Array> | Uint8Array;
  decode(bytes: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

/**
 * zarrita's blosc codec behind a check of each chunk's length against its
 * header; chunks of 64 KiB and more decode on the blosc pool's workers
 * where it has them (blosc-pool.ts), others on this thread with zarrita's
 * codec.
 */
class CheckedBloscCodec {
  readonly kind = "bytes_to_bytes";
  readonly #configuration: unknown;
  readonly #meta: unknown;
  #inner: Promise<BytesCodec> | undefined;

  static fromConfig(configuration: unknown, meta: unknown): CheckedBloscCodec {
    return new CheckedBloscCodec(configuration, meta);
  }

  constructor(configuration: unknown, meta: unknown) {
    this.#configuration = configuration;
    this.#meta = meta;
  }

  async encode(bytes: Uint8Array): Promise<Uint8Array> {
    return (await this.#codec()).encode(bytes);
  }

  async decode(bytes: Uint8Array): Promise<Uint8Array> {
    if (bytes.length < HEADER_BYTES)
      throw new DamagedBloscChunk(`its ${bytes.length} bytes are shorter than a blosc header (${HEADER_BYTES})`);
    const cbytes = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(12, true);
    if (cbytes !== bytes.length)
      throw new DamagedBloscChunk(`its blosc header says ${cbytes} bytes, the chunk holds ${bytes.length} (truncated)`);
    const pool = bytes.length < POOLED_BYTES ? undefined : bloscPool();
    return pool === undefined ? (await this.#codec()).decode(bytes) : pool.decode(bytes);
  }

  /** zarrita's blosc codec, loaded on first use. */
  #codec(): Promise<BytesCodec> {
    this.#inner ??= zarr.registry.get("blosc")!().then((Codec) =>
      (Codec as { fromConfig(c: unknown, m: unknown): BytesCodec }).fromConfig(this.#configuration, this.#meta),
    );
    return this.#inner;
  }
}
