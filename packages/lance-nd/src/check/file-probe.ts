/**
 * Probing the files a version names (README, "check"): each is `stat`ed and
 * opened from Node, because Lance reports its errors as strings. A file that
 * is missing, shorter than the manifest says, or whose bytes do not decode
 * is damage; one this process cannot open or read for another reason
 * (permission, descriptors, I/O, network) is not, and nothing is removed
 * for it.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { RecordBatchReader } from "apache-arrow";
import type { FragmentLayout, ManifestFileRef, ManifestLayout } from "../lance/manifest-layout.js";
import { type EnvironmentFailure, environmentFailure } from "./environment-errors.js";

/**
 * What kind of file of the table (a `manifest` is an object store's latest
 * manifest, or an older one checked out; a `tag` is a file or the folder of
 * `_refs/tags`, where imports keep their marks and locks).
 */
export type TableFileKind = "data" | "deletion" | "index" | "manifest" | "tag";

/** A file of the version that is damaged. */
export interface DamagedFile {
  /** Its path. */
  path: string;
  /** A fragment's data or deletion file, or an index's file. */
  kind: TableFileKind;
  /** The fragment it belongs to (data and deletion files). */
  fragment?: number;
  /** The index it belongs to (index files). */
  index?: string;
  /** `missing`, `truncated` (shorter than the manifest says) or `undecodable`. */
  problem: "missing" | "truncated" | "undecodable";
  /** What is wrong, in a phrase. */
  detail: string;
}

/** A file of the version this process could not read for a reason that is not damage. */
export interface InaccessibleFile {
  /** Its path. */
  path: string;
  /** A fragment's data or deletion file, or an index's file. */
  kind: TableFileKind;
  /** The fragment it belongs to (data and deletion files). */
  fragment?: number;
  /** The index it belongs to (index files). */
  index?: string;
  /** The error, e.g. `EACCES: permission denied, open '…'`. */
  cause: string;
  /**
   * `inaccessible`: access refused (EACCES, HTTP 401/403); `transient`: a
   * failure that may pass (I/O, descriptors, HTTP 5xx/429, throttling, a
   * dropped connection), after the store client's retries.
   */
  failure: EnvironmentFailure;
}

/** What probing every file of a version found. */
export interface FileProbe {
  damaged: DamagedFile[];
  inaccessible: InaccessibleFile[];
}

/** The bytes every Lance file (data, index) ends with. */
const LANCE_MAGIC = "LANC";

/** Probes every data, deletion and index file `layout` names. */
export function probeFiles(layout: ManifestLayout): FileProbe {
  const probe: FileProbe = { damaged: [], inaccessible: [] };
  for (const fragment of layout.fragments) {
    for (const file of fragment.dataFiles) probeOne(probe, file, { kind: "data", fragment: fragment.id });
    if (fragment.deletionFile !== undefined) probeDeletionFile(probe, fragment);
  }
  for (const index of layout.indexes) {
    for (const file of index.files) probeOne(probe, file, { kind: "index", index: index.name });
  }
  return probe;
}

type Owner = Pick<DamagedFile, "kind" | "fragment" | "index">;

/** Opens `file`, checks its size and its last bytes; returns its bytes when `whole` (small files). */
function probeOne(probe: FileProbe, file: ManifestFileRef, owner: Owner, whole = false): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file.path, "r");
  } catch (err) {
    noteError(probe, file.path, owner, err);
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (file.size !== undefined && size < file.size) {
      probe.damaged.push({
        path: file.path,
        ...owner,
        problem: "truncated",
        detail: `${size} of the ${file.size} bytes the manifest records`,
      });
      return undefined;
    }
    if (whole) return readFileSync(fd);
    const tail = Buffer.alloc(Math.min(LANCE_MAGIC.length, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    if (file.path.endsWith(".lance") && tail.toString("latin1") !== LANCE_MAGIC) {
      probe.damaged.push({
        path: file.path,
        ...owner,
        problem: "undecodable",
        detail: "it does not end as a Lance file",
      });
    }
    return undefined;
  } catch (err) {
    noteError(probe, file.path, owner, err);
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A missing file is damage; any other error of opening or reading is not. */
function noteError(probe: FileProbe, path: string, owner: Owner, err: unknown): void {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") probe.damaged.push({ path, ...owner, problem: "missing", detail: "the file does not exist" });
  else {
    const cause = (err as Error).message;
    probe.inaccessible.push({ path, ...owner, cause, failure: environmentFailure(cause) ?? "inaccessible" });
  }
}

// A roaring bitmap's portable serialization starts with one of these cookies (u32 little-endian, low 16 bits).
const ROARING_COOKIES = new Set([12346, 12347]);

/**
 * Reads a fragment's deletion file whole and decodes its frame: the footer
 * and schema of an Arrow IPC file of one batch of `row_id`, or the header
 * of a roaring bitmap. Bytes damaged inside the batch show when Lance reads
 * it (`check` then names the file from Lance's error).
 */
function probeDeletionFile(probe: FileProbe, fragment: FragmentLayout): void {
  const deletion = fragment.deletionFile!;
  const owner: Owner = { kind: "deletion", fragment: fragment.id };
  const bytes = probeOne(probe, { path: deletion.path }, owner, true);
  if (bytes === undefined) return;
  let problem: string | undefined;
  if (deletion.type === "bitmap") {
    if (bytes.length < 4 || !ROARING_COOKIES.has(bytes.readUInt32LE(0) & 0xffff))
      problem = "it is not a roaring bitmap";
  } else {
    // Lance compresses the batch's buffers, which apache-arrow does not decode: read the footer and schema only.
    try {
      const reader = RecordBatchReader.from(bytes).open();
      const fields = reader.schema.fields.map(String);
      if (!reader.isFile()) problem = "it is not an Arrow IPC file";
      else if (reader.numRecordBatches !== 1 || fields.join() !== "row_id: Uint32")
        problem = `it holds ${reader.numRecordBatches} batches of ${fields.join(", ")}, not one batch of row_id: Uint32`;
    } catch (err) {
      problem = `its Arrow IPC footer does not decode (${(err as Error).message})`;
    }
  }
  if (problem !== undefined)
    probe.damaged.push({ path: deletion.path, ...owner, problem: "undecodable", detail: problem });
}
