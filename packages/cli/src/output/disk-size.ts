/** The size on disk of a local table (a folder). */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * The total size in bytes of the files under `uri` when it is a local path
 * (or `file://` uri), undefined for object stores and `memory://`.
 */
export async function diskBytes(uri: string): Promise<number | undefined> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !uri.startsWith("file://")) return undefined;
  const root = uri.startsWith("file://") ? new URL(uri).pathname : uri;
  try {
    return await folderBytes(root);
  } catch {
    return undefined;
  }
}

async function folderBytes(path: string): Promise<number> {
  const entries = await readdir(path, { withFileTypes: true });
  let total = 0;
  for (const entry of entries) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? await folderBytes(full) : (await stat(full)).size;
  }
  return total;
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
  return unit === 0 ? `${bytes} B` : `${value.toPrecision(3)} ${units[unit]}`;
}
