/** The size on disk of a local table (a folder). */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../errors.js";

/**
 * The total size in bytes of the files under `uri` when it is a local path
 * (or `file://` uri), undefined for object stores and `memory://`. A file
 * or folder that goes away during the walk (a concurrent cleanup) counts 0;
 * one that cannot be read is `CliError` `InvalidFile` naming it and the
 * system's code, never a size that is too small.
 */
export async function diskBytes(uri: string): Promise<number | undefined> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !uri.startsWith("file://")) return undefined;
  const root = uri.startsWith("file://") ? new URL(uri).pathname : uri;
  return folderBytes(root);
}

async function folderBytes(path: string): Promise<number> {
  const entries = await readdir(path, { withFileTypes: true }).catch(gone([]));
  let total = 0;
  for (const entry of entries) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? await folderBytes(full) : ((await stat(full).catch(gone(undefined)))?.size ?? 0);
  }
  return total;
}

/** A handler that gives `value` for ENOENT (the path went away) and throws any other error naming the path. */
function gone<T>(value: T): (cause: NodeJS.ErrnoException) => T {
  return (cause) => {
    if (cause.code === "ENOENT") return value;
    throw new CliError(
      "InvalidFile",
      `cannot read ${cause.path ?? "a file"} to size the table (${cause.code ?? cause.message})`,
      {
        ...(cause.path === undefined ? {} : { path: cause.path }),
        cause,
      },
    );
  };
}

/** `1.2 MiB`: bytes in binary units with three significant digits. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${threeDigits(value)} ${units[unit]}`;
}

/**
 * `value` with three significant digits (`1.50`, `69.0`, `512`), and whole
 * from 999.5 on (`1000`, `1023`), where `toPrecision(3)` turns to an
 * exponent (`1.00e+3`).
 */
export function threeDigits(value: number): string {
  return value >= 999.5 ? value.toFixed(0) : value.toPrecision(3);
}
