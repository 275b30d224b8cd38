/**
 * The I/O seam of this package: a file by its path or bytes in memory, read
 * by byte ranges. Only this file (and `open.ts`, for h5wasm's temporary copy
 * of in-memory netCDF-4 bytes) touches `node:` modules.
 */
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { NetcdfError } from "./netcdf-error.js";
import { isHttpUrl, openUrlSource } from "./url-source.js";

/** A file read by byte ranges. */
export interface ByteSource {
  /** The path, or `<bytes>`, for messages. */
  readonly label: string;
  /** The real path, when the source is a file. */
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
  let handle: FileHandle;
  let size: number;
  try {
    handle = await open(source, "r");
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      throw new NetcdfError("InvalidFile", `${source}: not a file`, { path: source });
    }
    size = info.size;
  } catch (cause) {
    if (cause instanceof NetcdfError) throw cause;
    const code = (cause as { code?: string }).code;
    if (code === "ENOENT") throw new NetcdfError("FileNotFound", `${source}: no such file`, { path: source, cause });
    throw new NetcdfError("InvalidFile", `${source}: cannot open (${code ?? String(cause)})`, { path: source, cause });
  }
  return {
    label: source,
    path: source,
    size,
    read: async (offset, length) => {
      const out = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      let done = 0;
      while (done < out.length) {
        const { bytesRead } = await handle.read(out, done, out.length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return out.subarray(0, done);
    },
    close: () => handle.close(),
  };
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
