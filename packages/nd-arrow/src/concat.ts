/**
 * Concatenation: `Data` chunks of one type joined into one, on the raw
 * buffers of every value type of FORMAT.md "Types".
 */
import type { Data, DataType } from "apache-arrow";
import { sameType } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { bitmapBytes, copyBits, setBits } from "./bits.js";
import {
  build,
  bytesOf,
  checkByteLength,
  isWide,
  kindOf,
  newOffsets,
  offsetAt,
  offsetView,
  retype,
  setOffset,
} from "./value-buffers.js";

/**
 * `Data` chunks of one type joined, in order, into one `Data` (the chunk
 * itself when there is one). Throws `InvalidArgument` for no chunks or
 * chunks of different types.
 */
export function concatData<T extends DataType>(chunks: readonly Data<T>[]): Data<T> {
  const first = chunks[0];
  if (first === undefined) {
    throw new NdArrowError("InvalidArgument", "cannot concatenate zero chunks: the value type is unknown");
  }
  if (chunks.length === 1) return first;
  const { type } = first;
  for (const [i, c] of chunks.entries()) {
    if (!sameType(c.type, type)) {
      throw new NdArrowError("InvalidArgument", `chunk ${i} has type ${c.type}, expected ${type}`);
    }
  }
  const length = chunks.reduce((sum, c) => sum + c.length, 0);
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  if (chunks.some((c) => c.nullCount > 0)) {
    nullBitmap = new Uint8Array(bitmapBytes(length));
    let at = 0;
    for (const c of chunks) {
      if (c.nullCount > 0) copyBits(c.nullBitmap!, c.offset, nullBitmap, at, c.length);
      else setBits(nullBitmap, at, c.length);
      nullCount += c.nullCount;
      at += c.length;
    }
  }
  switch (kindOf(type)) {
    case "bits": {
      const bits = new Uint8Array(bitmapBytes(length));
      let at = 0;
      for (const c of chunks) {
        copyBits(c.values as Uint8Array, c.offset, bits, at, c.length);
        at += c.length;
      }
      return build(type, length, nullCount, nullBitmap, { data: bits });
    }
    case "fixed": {
      const width = first.values.BYTES_PER_ELEMENT as number;
      const out = new Uint8Array(length * width);
      let at = 0;
      for (const c of chunks) {
        out.set(bytesOf(c.values).subarray(0, c.length * width), at);
        at += c.length * width;
      }
      return build(type, length, nullCount, nullBitmap, { data: retype(out, first.values) });
    }
    case "varlen": {
      const wide = isWide(type);
      const total = chunks.reduce((sum, c) => {
        const o = offsetView(c.valueOffsets, wide);
        return sum + offsetAt(o, c.length) - offsetAt(o, 0);
      }, 0);
      checkByteLength(total, wide);
      const bytes = new Uint8Array(total);
      const offsets = newOffsets(length + 1, wide);
      const out = offsetView(offsets, wide);
      let at = 0;
      let pos = 0;
      for (const c of chunks) {
        const o = offsetView(c.valueOffsets, wide);
        const base = offsetAt(o, 0);
        for (let i = 0; i <= c.length; i++) setOffset(out, at + i, pos + offsetAt(o, i) - base);
        const end = offsetAt(o, c.length);
        bytes.set((c.values as Uint8Array).subarray(base, end), pos);
        pos += end - base;
        at += c.length;
      }
      return build(type, length, nullCount, nullBitmap, { valueOffsets: offsets, data: bytes });
    }
  }
}
