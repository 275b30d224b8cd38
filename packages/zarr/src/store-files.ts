/**
 * The package's one file-system seam: reading and listing a local store,
 * writing files of a new one. Everything else works on keys and bytes.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ZarrError } from "./zarr-error.js";

/** A local store directory: its zarrita store and raw access to its keys. */
export interface StoreFiles {
  /** The absolute directory. */
  readonly root: string;
  /** The zarrita store over the directory (chunk reads, range reads for shards). */
  readonly zarrita: FileSystemStore;
  /** The bytes of `key` (a path relative to the root), `undefined` when absent. */
  read(key: string): Promise<Uint8Array | undefined>;
  /** The names of the sub-directories of `key` (`""` for the root), sorted. */
  listDirs(key: string): Promise<string[]>;
}

/** The store at `path`; `NotFound` when it is not a directory. */
export async function openStoreFiles(path: string): Promise<StoreFiles> {
  const root = resolve(path);
  const info = await stat(root).catch((cause: unknown) => {
    throw new ZarrError("NotFound", "no Zarr store here (no such directory)", { path, cause });
  });
  if (!info.isDirectory()) throw new ZarrError("NotFound", "not a Zarr store (a file, not a directory)", { path });
  return {
    root,
    zarrita: new FileSystemStore(root),
    read: (key) =>
      readFile(join(root, key)).then(
        (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
        (cause: NodeJS.ErrnoException) => {
          if (cause.code === "ENOENT" || cause.code === "ENOTDIR") return undefined;
          throw new ZarrError("ReadFailed", `cannot read "${key}"`, { path, cause });
        },
      ),
    listDirs: async (key) => {
      const entries = await readdir(join(root, key), { withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
    },
  };
}

/** The store's name: the last segment of its path (`"sst.zarr"`). */
export function storeName(path: string): string {
  return basename(resolve(path));
}

/** Writes files under a new store directory. */
export interface StoreWriter {
  /** Writes `bytes` at `key`, creating directories. */
  write(key: string, bytes: Uint8Array): Promise<void>;
  /** Removes the whole directory (after a failed write). */
  remove(): Promise<void>;
}

/**
 * A writer for a new store at `path`. `overwrite` removes an existing
 * directory first; otherwise an existing path is `InvalidArgument`.
 */
export async function createStoreWriter(path: string, overwrite: boolean): Promise<StoreWriter> {
  const root = resolve(path);
  const exists = await stat(root).then(
    () => true,
    () => false,
  );
  if (exists && !overwrite) {
    throw new ZarrError("InvalidArgument", "the output already exists (pass { overwrite: true } to replace it)", { path });
  }
  try {
    if (exists) await rm(root, { recursive: true });
    await mkdir(root, { recursive: true });
  } catch (cause) {
    throw new ZarrError("WriteFailed", "cannot create the output directory", { path, cause });
  }
  return {
    async write(key, bytes) {
      const file = join(root, key);
      try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, bytes);
      } catch (cause) {
        throw new ZarrError("WriteFailed", `cannot write "${key}"`, { path, cause });
      }
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
