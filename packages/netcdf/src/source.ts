/**
 * The I/O seam of this package: a file by its path, at a URL or bytes in
 * memory, read by byte ranges. Only the files of this seam (this one,
 * file-source.ts, url-source.ts's temporary copy, and `open.ts`, for
 * h5wasm's temporary copy of netCDF-4 bytes) touch `node:` modules.
 */
import { open } from "node:fs/promises";
import { openFileSource } from "./file-source.js";
import { isHttpUrl, openUrlSource } from "./url-source.js";

/** A file read by byte ranges. */
export interface ByteSource {
  /** The path, or `<bytes>`, for messages. */
  readonly label: string;
  /** The real path, when the source is a file (a URL's, once the whole file a server sent is kept in one). */
  readonly path: string | undefined;
  /** The size in bytes. */
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** True when `value` is a {@link ByteSource} rather than a path or bytes. */
export function isByteSource(value: unknown): value is ByteSource {
  return typeof value === "object" && value !== null && typeof (value as ByteSource).read === "function";
}

/**
 * Opens a path (`FileNotFound`, `InvalidFile` when it cannot be read), an
 * `http(s)://` URL (url-source.ts), or wraps bytes or a {@link ByteSource}.
 */
export async function openSource(source: string | Uint8Array | ByteSource): Promise<ByteSource> {
  if (isByteSource(source)) return source;
  if (typeof source === "string" && isHttpUrl(source)) return openUrlSource(source);
  if (typeof source !== "string") {
    return {
      label: "<bytes>",
      path: undefined,
      size: source.byteLength,
      read: (offset, length) => Promise.resolve(source.subarray(offset, Math.min(offset + length, source.byteLength))),
      close: () => Promise.resolve(),
    };
  }
  return openFileSource(source);
}

/** The block a copy reads at a time: memory stays bounded whatever the file's size. */
const COPY_BLOCK = 8 * 2 ** 20;

/** Copies every byte of `source` into a new file at `path`, a block at a time. */
export async function copyToFile(source: ByteSource, path: string): Promise<void> {
  const out = await open(path, "wx");
  try {
    for (let offset = 0; offset < source.size; offset += COPY_BLOCK) {
      const block = await source.read(offset, Math.min(COPY_BLOCK, source.size - offset));
      await out.write(block, 0, block.length, offset);
    }
  } finally {
    await out.close();
  }
}
