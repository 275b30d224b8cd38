/**
 * What the netCDF-4 writer writes through h5wasm's low-level calls, where
 * h5wasm's own writes cannot hold the values: char variables as bytes,
 * NC_STRING variables with NIL values, and attributes (NC_STRING ones with
 * NIL strings among them, char ones of bytes that are not UTF-8).
 */
import type { Dataset } from "h5wasm";
import type { H5Module, H5Wasm } from "./h5wasm.js";
import { H5T_STRING } from "./hdf5-types.js";
import { CharBytes } from "./stored.js";
import type { AttrValue } from "./stored.js";

/** A file or dataset: what attributes are written to. */
type AttrTarget = Pick<Dataset, "create_attribute" | "file_id" | "path">;

/** An h5wasm file open for writing. */
export type H5File = InstanceType<H5Wasm["File"]>;

/**
 * A char variable, written as its bytes: h5wasm encodes each one-byte cell
 * of an `S1` dataset from a JS string, which cannot hold a byte of a
 * multi-byte UTF-8 character, so the dataset is made NUL-filled and its
 * bytes are set with one HDF5 write.
 */
export function writeChars(
  module: H5Module,
  file: H5File,
  name: string,
  bytes: Uint8Array,
  shape: readonly number[],
  layout: object,
): void {
  const empty = new Array<string>(bytes.length).fill("");
  file.create_dataset({ name, data: empty, shape: [...shape], dtype: "S1", track_order: true, ...layout });
  if (bytes.length === 0) return;
  const pointer = module._malloc(bytes.length);
  if (pointer === 0) throw new Error(`cannot allocate ${bytes.length} bytes in wasm memory`);
  try {
    module.HEAPU8.set(bytes, pointer);
    module.set_dataset_data(file.file_id, `/${name}`, null, null, null, BigInt(pointer));
  } finally {
    module._free(pointer);
  }
}

/** Writes attributes: text as a char attribute (fixed-length string), lists of text as NC_STRING. */
export function writeAttrs(module: H5Module, target: AttrTarget, attrs: ReadonlyMap<string, AttrValue>): void {
  for (const [key, value] of attrs) {
    if (typeof value === "string") {
      const bytes = new TextEncoder().encode(value).length;
      target.create_attribute(key, value, null, `S${Math.max(bytes, 1)}`);
    } else if (value instanceof CharBytes) writeCharBytes(module, target, key, value.bytes);
    else if (Array.isArray(value)) {
      if (value.includes(null)) writeNilStrings(module, target, key, value);
      else target.create_attribute(key, value as string[], [value.length], "S");
    } else {
      target.create_attribute(key, value, [value.length]);
    }
  }
}

/**
 * A char attribute of bytes that are not UTF-8, as netCDF-C writes a char
 * attribute: one fixed-length ASCII string of its length, set byte for byte
 * (h5wasm's own write takes a JS string, which it encodes as UTF-8).
 */
function writeCharBytes(module: H5Module, target: AttrTarget, key: string, bytes: Uint8Array): void {
  const pointer = module._malloc(Math.max(bytes.length, 1));
  if (pointer === 0) throw new Error(`cannot allocate ${bytes.length} bytes in wasm memory`);
  try {
    module.HEAPU8.set(bytes, pointer);
    const metadata = {
      type: H5T_STRING,
      size: Math.max(bytes.length, 1),
      signed: false,
      vlen: false,
      littleEndian: true,
      cset: 0,
      shape: [],
      maxshape: [],
      total_size: 1,
    };
    module.create_attribute(target.file_id, target.path, key, BigInt(pointer), metadata);
  } finally {
    module._free(pointer);
  }
}

/**
 * An NC_STRING attribute with NIL strings: h5wasm writes a JS string for
 * each value, so the `char *` array is laid out in wasm memory
 * ({@link withCharPointers}) and written with one HDF5 call.
 */
function writeNilStrings(module: H5Module, target: AttrTarget, key: string, values: readonly (string | null)[]): void {
  withCharPointers(module, values, (pointers) => {
    const shape = [BigInt(values.length)];
    const metadata = {
      type: H5T_STRING,
      size: 4,
      signed: false,
      vlen: true,
      littleEndian: true,
      shape,
      maxshape: shape,
      total_size: values.length,
    };
    module.create_attribute(target.file_id, target.path, key, BigInt(pointers), metadata);
  });
}

/**
 * An NC_STRING variable with NIL values (nulls): h5wasm created it with
 * `""` in their place; its values are set again from a `char *` array with
 * NULL for each NIL value, in one HDF5 write.
 */
export function writeNilValues(module: H5Module, file: H5File, name: string, values: readonly (string | null)[]): void {
  if (values.length === 0) return;
  withCharPointers(module, values, (pointers) =>
    module.set_dataset_data(file.file_id, `/${name}`, null, null, null, BigInt(pointers)),
  );
}

/** Runs `write` with `values` as a `char *` array in wasm memory (4 bytes each, wasm32; NULL for `null`), freed after. */
function withCharPointers(
  module: H5Module,
  values: readonly (string | null)[],
  write: (pointers: number) => void,
): void {
  const encoder = new TextEncoder();
  const owned: number[] = [];
  const allocate = (bytes: number): number => {
    const pointer = module._malloc(Math.max(bytes, 1));
    if (pointer === 0) throw new Error(`cannot allocate ${bytes} bytes in wasm memory`);
    owned.push(pointer);
    return pointer;
  };
  try {
    const pointers = allocate(4 * values.length);
    for (const [i, value] of values.entries()) {
      const text = value === null ? undefined : encoder.encode(`${value}\0`);
      const at = text === undefined ? 0 : allocate(text.length);
      if (text !== undefined) module.HEAPU8.set(text, at);
      new DataView(module.HEAPU8.buffer).setUint32(pointers + 4 * i, at, true);
    }
    write(pointers);
  } finally {
    for (const pointer of owned) module._free(pointer);
  }
}
