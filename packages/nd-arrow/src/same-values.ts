/**
 * Value equality of two vectors on their raw buffers: same type, length,
 * nulls and valid values (what sits under a null is ignored).
 */
import type { Vector } from "apache-arrow";
import { sameType, type TypedArray } from "./data-type.js";
import { getBit } from "./bits.js";
import { concatData } from "./concat.js";
import { bytesOf, isWide, kindOf, offsetAt, offsetView } from "./value-buffers.js";

/**
 * True when `a` and `b` hold the same values: same type, length, nulls, and
 * the same bytes in every valid slot (what sits under a null is ignored).
 */
export function sameValues(a: Vector, b: Vector): boolean {
  if (a === b) return true;
  if (!sameType(a.type, b.type) || a.length !== b.length) return false;
  if (a.data.length === 1 && b.data.length === 1 && a.data[0] === b.data[0]) return true;
  const x = concatData(a.data);
  const y = concatData(b.data);
  const n = x.length;
  const validX = x.nullCount > 0 ? x.nullBitmap : undefined;
  const validY = y.nullCount > 0 ? y.nullBitmap : undefined;
  const isValid = (bits: Uint8Array | undefined, offset: number, i: number) =>
    bits === undefined || getBit(bits, offset + i) === 1;
  const kind = kindOf(x.type);
  const width = kind === "fixed" ? (x.values as TypedArray).BYTES_PER_ELEMENT : 0;
  const bytesX = kind === "fixed" ? bytesOf(x.values) : (x.values as Uint8Array);
  const bytesY = kind === "fixed" ? bytesOf(y.values) : (y.values as Uint8Array);
  const wide = isWide(x.type);
  const offX = kind === "varlen" ? offsetView(x.valueOffsets, wide) : undefined;
  const offY = kind === "varlen" ? offsetView(y.valueOffsets, wide) : undefined;
  for (let i = 0; i < n; i++) {
    const valid = isValid(validX, x.offset, i);
    if (valid !== isValid(validY, y.offset, i)) return false;
    if (!valid) continue;
    if (kind === "bits") {
      if (getBit(bytesX, x.offset + i) !== getBit(bytesY, y.offset + i)) return false;
    } else if (kind === "fixed") {
      for (let k = i * width; k < (i + 1) * width; k++) if (bytesX[k] !== bytesY[k]) return false;
    } else {
      const ax = offsetAt(offX!, i);
      const ay = offsetAt(offY!, i);
      const len = offsetAt(offX!, i + 1) - ax;
      if (len !== offsetAt(offY!, i + 1) - ay) return false;
      for (let k = 0; k < len; k++) if (bytesX[ax + k] !== bytesY[ay + k]) return false;
    }
  }
  return true;
}
