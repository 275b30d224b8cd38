/**
 * Validity and boolean bitmaps (Arrow's LSB-first bit order): sizes, reads,
 * range copies and counts, shared by the gather, concatenation and strided
 * kernels.
 */

/** Bytes of a bitmap of `bits` bits. */
export function bitmapBytes(bits: number): number {
  return (bits + 7) >> 3;
}

/** Bit `i` of `bits` (0 or 1). */
export function getBit(bits: Uint8Array, i: number): number {
  return (bits[i >> 3]! >> (i & 7)) & 1;
}

/** Copies `len` bits into a zeroed destination range; byte-wise where both sides line up. */
export function copyBits(src: Uint8Array, srcAt: number, dst: Uint8Array, dstAt: number, len: number): void {
  let i = 0;
  if ((srcAt & 7) === (dstAt & 7)) {
    for (; i < len && ((dstAt + i) & 7) !== 0; i++)
      dst[(dstAt + i) >> 3]! |= getBit(src, srcAt + i) << ((dstAt + i) & 7);
    const whole = (len - i) >> 3;
    if (whole > 0) {
      const s = (srcAt + i) >> 3;
      dst.set(src.subarray(s, s + whole), (dstAt + i) >> 3);
      i += whole << 3;
    }
  }
  for (; i < len; i++) dst[(dstAt + i) >> 3]! |= getBit(src, srcAt + i) << ((dstAt + i) & 7);
}

/** Sets `len` bits from bit `at` of `dst`. */
export function setBits(dst: Uint8Array, at: number, len: number): void {
  for (let i = at; i < at + len; i++) dst[i >> 3]! |= 1 << (i & 7);
}

/** The number of set bits of byte `x`. */
export function popcount8(x: number): number {
  x -= (x >> 1) & 0x55;
  x = (x & 0x33) + ((x >> 2) & 0x33);
  return (x + (x >> 4)) & 0x0f;
}
