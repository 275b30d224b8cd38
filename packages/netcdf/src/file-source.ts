/**
 * A file on disk as a {@link ByteSource}, read by byte ranges through one
 * file handle (README "Reading": a file costs the bytes a read touches).
 */
import { randomUUID } from "node:crypto";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetcdfError } from "./netcdf-error.js";
import type { ByteSource } from "./source.js";

/**
 * The file at `path`, named `label` in messages (default its path).
 * `FileNotFound` when there is none; `InvalidFile` when it cannot be read
 * or is not a file.
 */
export async function openFileSource(path: string, label = path): Promise<ByteSource> {
  let handle: FileHandle;
  let size: number;
  try {
    handle = await open(path, "r");
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      throw new NetcdfError("InvalidFile", `${label}: not a file`, { path: label });
    }
    size = info.size;
  } catch (cause) {
    if (cause instanceof NetcdfError) throw cause;
    const code = (cause as { code?: string }).code;
    if (code === "ENOENT") throw new NetcdfError("FileNotFound", `${label}: no such file`, { path: label, cause });
    throw new NetcdfError("InvalidFile", `${label}: cannot open (${code ?? String(cause)})`, { path: label, cause });
  }
  return {
    label,
    path,
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

/** A new path in the system's temporary folder for a copy of a netCDF file (the caller removes it). */
export function temporaryCopyPath(): string {
  return join(tmpdir(), `lance-nd-${randomUUID()}.nc`);
}
