/**
 * The files one manifest of a local table names, read from the manifest's
 * bytes without the SDK (which exposes no fragment's files): each
 * fragment's data files with the sizes Lance recorded, its deletion file,
 * and each index's files. Used by `check` to probe every file of a version
 * (SDK-NOTES.md, section 25).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { LanceNdError } from "../errors.js";

/** A file a manifest names, with the byte size Lance recorded for it (when it recorded one). */
export interface ManifestFileRef {
  /** The absolute path of the file. */
  path: string;
  /** Its size in bytes when written; undefined when the manifest does not say. */
  size?: number;
}

/** The deletion file of a fragment. */
interface DeletionFileRef {
  /** The absolute path (`_deletions/<fragment>-<read version>-<id>.arrow|bin`). */
  path: string;
  /** `arrow`: an Arrow IPC file of deleted offsets; `bitmap`: a roaring bitmap. */
  type: "arrow" | "bitmap";
  /** The rows it deletes, as the manifest counts them. */
  deletedRows: number;
}

/** One fragment of a version. */
export interface FragmentLayout {
  /** The fragment id. */
  id: number;
  /** Rows in its data files, deleted ones included. */
  physicalRows: number;
  /** Its data files. */
  dataFiles: ManifestFileRef[];
  /** Its deletion file, when rows of it are deleted. */
  deletionFile?: DeletionFileRef;
}

/** One index of a version. */
interface IndexLayout {
  /** Lance's name of it. */
  name: string;
  /** Its folder, `_indices/<uuid>`. */
  folder: string;
  /** The files the manifest lists for it with their sizes; empty when it lists none (older indexes). */
  files: ManifestFileRef[];
}

/** What a manifest names. */
export interface ManifestLayout {
  fragments: FragmentLayout[];
  indexes: IndexLayout[];
}

/**
 * Reads the fragments and indexes of the manifest file `manifestPath` of
 * the table in `folder`. A manifest file ends with the position of its
 * protobuf `Manifest` (u64, then two u16 versions and `LANC`); each section
 * it points to is a u32 length and a protobuf message.
 *
 * @throws LanceNdError `InvalidTable` when the bytes are not a manifest
 * (`check` reads only manifests the SDK opened).
 */
export function readManifestLayout(folder: string, manifestPath: string): ManifestLayout {
  try {
    return layoutOf(folder, manifestPath, readFileSync(manifestPath));
  } catch (err) {
    throw new LanceNdError(
      "InvalidTable",
      `${manifestPath} does not read as a Lance manifest: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

function layoutOf(folder: string, manifestPath: string, bytes: Buffer): ManifestLayout {
  if (bytes.length < 16 || bytes.toString("latin1", bytes.length - 4) !== "LANC")
    throw new Error(`${manifestPath} does not end with LANC`);
  const manifest = fieldsOf(section(bytes, Number(bytes.readBigUInt64LE(bytes.length - 16))));
  const fragments = manifest
    .filter((f) => f.field === MANIFEST_FRAGMENTS)
    .map((f) => fragmentOf(folder, fieldsOf(f.bytes!)));
  const indexPosition = manifest.find((f) => f.field === MANIFEST_INDEX_SECTION);
  const indexes =
    indexPosition === undefined
      ? []
      : fieldsOf(section(bytes, Number(indexPosition.value)))
          .filter((f) => f.field === 1)
          .map((f) => indexOf(folder, fieldsOf(f.bytes!)));
  return { fragments, indexes };
}

// Field numbers of Lance's table.proto (lance-table 12) that check reads.
const MANIFEST_FRAGMENTS = 2;
const MANIFEST_INDEX_SECTION = 6;
const FRAGMENT = { id: 1, files: 2, deletionFile: 3, physicalRows: 4 } as const;
const DATA_FILE = { path: 1, size: 6 } as const;
const DELETION_FILE = { type: 1, readVersion: 2, id: 3, deletedRows: 4 } as const;
const INDEX = { uuid: 1, name: 3, files: 10 } as const;
const INDEX_FILE = { path: 1, size: 2 } as const;

function fragmentOf(folder: string, fields: ProtoField[]): FragmentLayout {
  const id = Number(varintOf(fields, FRAGMENT.id));
  const fragment: FragmentLayout = {
    id,
    physicalRows: Number(varintOf(fields, FRAGMENT.physicalRows)),
    dataFiles: fields
      .filter((f) => f.field === FRAGMENT.files)
      .map((f) => fileRef(path.join(folder, "data"), fieldsOf(f.bytes!), DATA_FILE)),
  };
  const deletion = fields.find((f) => f.field === FRAGMENT.deletionFile);
  if (deletion !== undefined) {
    const d = fieldsOf(deletion.bytes!);
    const type = varintOf(d, DELETION_FILE.type) === 1n ? "bitmap" : "arrow";
    const name = `${id}-${varintOf(d, DELETION_FILE.readVersion)}-${varintOf(d, DELETION_FILE.id)}.${type === "bitmap" ? "bin" : "arrow"}`;
    fragment.deletionFile = {
      path: path.join(folder, "_deletions", name),
      type,
      deletedRows: Number(varintOf(d, DELETION_FILE.deletedRows)),
    };
  }
  return fragment;
}

function indexOf(folder: string, fields: ProtoField[]): IndexLayout {
  const uuid = fieldsOf(fields.find((f) => f.field === INDEX.uuid)!.bytes!).find((f) => f.field === 1)!.bytes!;
  const hex = uuid.toString("hex");
  const indexFolder = path.join(
    folder,
    "_indices",
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
  );
  return {
    name: fields.find((f) => f.field === INDEX.name)?.bytes?.toString("utf8") ?? "",
    folder: indexFolder,
    files: fields
      .filter((f) => f.field === INDEX.files)
      .map((f) => fileRef(indexFolder, fieldsOf(f.bytes!), INDEX_FILE)),
  };
}

function fileRef(dir: string, fields: ProtoField[], numbers: { path: number; size: number }): ManifestFileRef {
  const name = fields.find((f) => f.field === numbers.path)?.bytes?.toString("utf8") ?? "";
  const size = fields.find((f) => f.field === numbers.size);
  return size === undefined ? { path: path.join(dir, name) } : { path: path.join(dir, name), size: Number(size.value) };
}

/** The message at `position`: a u32 little-endian length, then that many bytes. */
function section(bytes: Buffer, position: number): Buffer {
  const length = bytes.readUInt32LE(position);
  return bytes.subarray(position + 4, position + 4 + length);
}

/** One field of a protobuf message: a number for varint and fixed fields, bytes for length-delimited ones. */
interface ProtoField {
  field: number;
  value: bigint;
  bytes?: Buffer;
}

/** The fields of a protobuf message in order (proto3 omits fields at their default: read them as 0). */
function fieldsOf(message: Buffer): ProtoField[] {
  const out: ProtoField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at >= message.length) throw new Error("a protobuf varint runs past its message");
      const byte = message[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ field, value: varint() });
    else if (wire === 1) {
      out.push({ field, value: message.readBigUInt64LE(at) });
      at += 8;
    } else if (wire === 2) {
      const length = Number(varint());
      out.push({ field, value: BigInt(length), bytes: message.subarray(at, at + length) });
      at += length;
    } else if (wire === 5) {
      out.push({ field, value: BigInt(message.readUInt32LE(at)) });
      at += 4;
    } else throw new Error(`protobuf wire type ${wire} is not one Lance's manifest uses`);
  }
  return out;
}

function varintOf(fields: ProtoField[], field: number): bigint {
  return fields.find((f) => f.field === field)?.value ?? 0n;
}
