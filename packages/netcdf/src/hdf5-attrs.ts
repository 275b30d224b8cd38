/**
 * Attributes of a netCDF-4 file read through h5wasm's low-level calls (one
 * metadata call and one data call each, not h5wasm's `Attribute` objects,
 * which read their metadata twice), and the strings HDF5 leaves in wasm
 * memory: fixed-length and variable-length (NC_STRING, NIL as `null`).
 */
import type { H5Module } from "./h5wasm.js";
import { H5T_STRING, TYPED, ncTypeOf, typeName } from "./hdf5-types.js";
import { charAttr } from "./raw.js";
import type { RawAttr } from "./raw.js";

/** HDF5 / netCDF-4 bookkeeping attributes: not user attributes. */
const HIDDEN_ATTRS = new Set([
  "CLASS",
  "NAME",
  "REFERENCE_LIST",
  "DIMENSION_LIST",
  "_Netcdf4Dimid",
  "_Netcdf4Coordinates",
  "_NCProperties",
  "_nc3_strict",
  "_IsNetcdf4",
  "_SuperblockVersion",
]);

/** Reads `bytes` bytes through `fill` into a fresh JS buffer (one wasm allocation). */
export function viaHeap(module: H5Module, bytes: number, fill: (pointer: bigint) => void): ArrayBuffer {
  const pointer = module._malloc(Math.max(bytes, 1));
  if (pointer === 0) throw new Error(`cannot allocate ${bytes} bytes in wasm memory`);
  try {
    fill(BigInt(pointer));
    return module.HEAPU8.slice(pointer, pointer + bytes).buffer;
  } finally {
    module._free(pointer);
  }
}

/** Fixed-length strings (`size` bytes each, NUL-padded) to JS strings. */
export function fixedStrings(buffer: ArrayBuffer, size: number, count: number): string[] {
  const bytes = new Uint8Array(buffer);
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let end = i * size;
    while (end < (i + 1) * size && bytes[end] !== 0) end++;
    out.push(decoder.decode(bytes.subarray(i * size, end)));
  }
  return out;
}

/**
 * The strings of an NC_STRING attribute, NIL ones as `null` (h5wasm's own
 * reader gives NIL as ""): HDF5 fills wasm memory with one `char *` per
 * value (4 bytes, wasm32), read here before HDF5 frees what they point to.
 */
function vlenStrings(module: H5Module, fid: bigint, path: string, name: string, count: number): (string | null)[] {
  const pointers = module._malloc(Math.max(4 * count, 1));
  if (pointers === 0) throw new Error(`cannot allocate ${4 * count} bytes in wasm memory`);
  const decoder = new TextDecoder();
  try {
    module.get_attribute_data(fid, path, name, BigInt(pointers));
    const heap = module.HEAPU8;
    const view = new DataView(heap.buffer, heap.byteOffset, heap.byteLength);
    const out: (string | null)[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const at = view.getUint32(pointers + 4 * i, true);
        if (at === 0) out.push(null);
        else out.push(decoder.decode(heap.subarray(at, heap.indexOf(0, at))));
      }
    } finally {
      module.reclaim_vlen_memory(fid, path, name, BigInt(pointers));
    }
    return out;
  } finally {
    module._free(pointers);
  }
}

/** One attribute, read with one metadata call and one data call; `undefined` for an unsupported type. */
export function readAttr(module: H5Module, fid: bigint, path: string, name: string): RawAttr | undefined {
  const m = module.get_attribute_metadata(fid, path, name);
  const count = m.total_size;
  if (m.type === H5T_STRING) {
    if (m.vlen) return { name, type: "string", value: vlenStrings(module, fid, path, name, count) };
    const buffer = viaHeap(module, m.size * count, (p) => module.get_attribute_data(fid, path, name, p));
    // netCDF-C writes a char attribute as one fixed string of its length, every byte the value's, and an
    // empty one as one NUL (HDF5's own CLASS and NAME end at their NUL).
    const bytes = new Uint8Array(buffer);
    if (count === 1 && !HIDDEN_ATTRS.has(name))
      return m.size === 1 && bytes[0] === 0 ? { name, type: "char", value: [""] } : charAttr(name, bytes);
    return { name, type: "char", value: fixedStrings(buffer, m.size, count) };
  }
  const type = ncTypeOf(m);
  if (type === undefined || type === "char" || type === "string") return undefined;
  const buffer = viaHeap(module, m.size * count, (p) => module.get_attribute_data(fid, path, name, p));
  return { name, type, value: new TYPED[type](buffer) };
}

/**
 * The user attributes `names` of the object at `path` (the hidden ones left
 * out); for each of a type not supported, `unsupported(name, type)` goes to
 * `warnings` instead.
 */
export function readAttrs(
  module: H5Module,
  fid: bigint,
  path: string,
  names: readonly string[],
  warnings: string[],
  unsupported: (name: string, type: string) => string,
): RawAttr[] {
  const attrs: RawAttr[] = [];
  for (const name of names) {
    if (HIDDEN_ATTRS.has(name)) continue;
    const a = readAttr(module, fid, path, name);
    if (a === undefined) warnings.push(unsupported(name, typeName(module.get_attribute_metadata(fid, path, name))));
    else attrs.push(a);
  }
  return attrs;
}
