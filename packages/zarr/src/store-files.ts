/**
 * The package's one file-system seam: reading and listing a local store,
 * writing files of a new one. Everything else works on keys and bytes
 * ({@link StoreFiles}, which store-sources.ts gives for stores elsewhere).
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { ZarrStoreReader } from "./store-reader.js";
import FileSystemStore from "@zarrita/storage/fs";
import { RangePastEnd } from "./shard-ranges.js";
import { ZarrError } from "./zarr-error.js";

/** A store: its zarrita store and raw access to its keys. */
export interface StoreFiles {
  /** The absolute directory of a local store, the URL of one elsewhere. */
  readonly root: string;
  /** @internal The zarrita store (chunk reads, range reads for shards). */
  readonly zarrita: ZarrStoreReader;
  /** The bytes of `key` (a path relative to the root), `undefined` when absent. */
  read(key: string): Promise<Uint8Array | undefined>;
  /** The names of the sub-directories of `key` (`""` for the root), sorted. */
  listDirs(key: string): Promise<string[]>;
  /** The store of the group at `group` (a `/`-separated path inside this one). */
  at(group: string): Promise<StoreFiles> | StoreFiles;
}

/** The store at `path`; `NotFound` when it is not a directory. */
export async function openStoreFiles(path: string): Promise<StoreFiles> {
  const root = resolve(path);
  const info = await stat(root).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code === "ENOENT")
      throw new ZarrError("NotFound", "no Zarr store here (no such directory)", { path, cause });
    throw new ZarrError("ReadFailed", `cannot read the store directory (${cause.code ?? cause.message})`, {
      path,
      cause,
    });
  });
  if (!info.isDirectory()) throw new ZarrError("NotFound", "not a Zarr store (a file, not a directory)", { path });
  return {
    root,
    zarrita: new RangeCheckedStore(root),
    read: (key) =>
      readFile(join(root, key)).then(
        (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
        (cause: NodeJS.ErrnoException) => {
          if (cause.code === "ENOENT" || cause.code === "ENOTDIR") return undefined;
          throw new ZarrError("ReadFailed", `cannot read "${key}"`, { path, cause });
        },
      ),
    listDirs: async (key) => {
      const entries = await readdir(join(root, key), { withFileTypes: true }).catch((cause: NodeJS.ErrnoException) => {
        // Only a directory that is not there has no entries; any other failure would read as an empty store.
        if (cause.code === "ENOENT") return [];
        throw new ZarrError("ReadFailed", `cannot list "${key || "."}" (${cause.code ?? cause.message})`, {
          path,
          cause,
        });
      });
      return entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
    },
    at: (group) => openStoreFiles(`${path}/${group}`),
  };
}

/** True when `source` is a URL (`scheme://...`) rather than a local path. */
export function isStoreUrl(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(source);
}

/** The store's name: the last segment of its path or URL (`"sst.zarr"`). */
export function storeName(path: string): string {
  if (isStoreUrl(path)) {
    const segments = new URL(path).pathname.split("/").filter((s) => s !== "");
    return decodeURIComponent(segments.at(-1) ?? new URL(path).hostname);
  }
  return basename(resolve(path));
}

/** Writes files of a new store into a hidden sibling directory, moved into place by `commit`. */
export interface StoreWriter {
  /** Writes `bytes` at `key`, creating directories. */
  write(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes written at `key`. */
  read(key: string): Promise<Uint8Array>;
  /** Puts the written store at the output path (replacing an old one when overwriting). */
  commit(): Promise<void>;
  /** Removes what was written; the output path is left as it was. */
  abort(): Promise<void>;
}

/**
 * A writer for a new store at `path`. An existing path is `InvalidArgument`
 * unless `overwrite` (`mode: "overwrite"`); then it is replaced only by `commit`, so a failed
 * write leaves it as it was.
 */
export async function createStoreWriter(path: string, overwrite: boolean): Promise<StoreWriter> {
  const root = resolve(path);
  /** True when something is at the output path; a failure other than ENOENT is `WriteFailed` (it may be there). */
  const exists = () =>
    stat(root).then(
      () => true,
      (cause: NodeJS.ErrnoException) => {
        if (cause.code === "ENOENT") return false;
        throw new ZarrError("WriteFailed", `cannot look at the output path (${cause.code ?? cause.message})`, {
          path,
          cause,
        });
      },
    );
  if ((await exists()) && !overwrite) {
    throw new ZarrError("InvalidArgument", 'the output already exists (pass mode: "overwrite" to replace it)', {
      path,
    });
  }
  const staging = join(dirname(root), `.${basename(root)}.writing-${process.pid}-${Date.now()}`);
  try {
    await makeDirectory(staging);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ZarrError("WriteFailed", `cannot create the output directory (${code ?? String(cause)})`, {
      path,
      cause,
    });
  }
  return {
    async write(key, bytes) {
      const file = join(staging, key);
      try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, bytes);
      } catch (cause) {
        throw new ZarrError("WriteFailed", `cannot write "${key}"`, { path, cause });
      }
    },
    read: (key) => readFile(join(staging, key)),
    async commit() {
      try {
        if (await exists()) await rm(root, { recursive: true });
        await rename(staging, root);
      } catch (cause) {
        throw new ZarrError("WriteFailed", "cannot move the written store into place", { path, cause });
      }
    },
    abort: () => rm(staging, { recursive: true, force: true }),
  };
}

/**
 * Creates `dir` and its missing parents, one `mkdir` per level. Node's own
 * `mkdir(..., { recursive: true })` never returns where a parent exists
 * but refuses children with ENOENT (`/proc`); here a level that still
 * fails after its parent was made fails with its own error.
 */
async function makeDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(dir) === dir) throw cause;
    await makeDirectory(dirname(dir));
    await mkdir(dir);
  }
}

type Range = { offset: number; length: number } | { suffixLength: number };

/** zarrita's file-system store whose `getRange` refuses a range past the end of its file ({@link RangePastEnd}). */
class RangeCheckedStore extends FileSystemStore {
  override async getRange(
    key: `/${string}`,
    range: Range,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> {
    const [start, length] = "suffixLength" in range ? [undefined, range.suffixLength] : [range.offset, range.length];
    if (
      !Number.isSafeInteger(length) ||
      length < 0 ||
      (start !== undefined && (!Number.isSafeInteger(start) || start < 0))
    )
      throw new RangePastEnd(`the range ${describe(range)} of "${key}" is not a byte range`);
    const size = await fileSize(join(this.root, key.replace(/^\//, "")));
    if (size === undefined) return undefined;
    if ((start ?? 0) + length > size)
      throw new RangePastEnd(`the range ${describe(range)} of "${key}" lies past its end (${size} bytes)`);
    return super.getRange(key, range, options);
  }
}

/** `offset 12 length 40` or `the last 40 bytes`. */
function describe(range: Range): string {
  return "suffixLength" in range
    ? `of the last ${range.suffixLength} bytes`
    : `at offset ${range.offset} of length ${range.length}`;
}

/** The size of the file at `path`, or undefined when there is none. */
async function fileSize(path: string): Promise<number | undefined> {
  try {
    const handle = await open(path, "r");
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR")
      return undefined;
    throw err;
  }
}
