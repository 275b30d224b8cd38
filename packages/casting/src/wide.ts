/**
 * Exact 64-bit integer arithmetic on two 32-bit halves, without BigInt (no
 * allocation per value). A value is `hi * 2^32 + lo` with `lo` in [0, 2^32)
 * and `hi` a signed (Int64) or unsigned (UInt64) 32-bit integer. Arrow stores
 * 64-bit integers little-endian, so the halves of value i are words 2i (lo)
 * and 2i + 1 (hi) of a Uint32Array over the same bytes.
 */

export const TWO_POW_32 = 4_294_967_296;
const TWO_POW_31 = 2_147_483_648;
/** Above 2^53 a double no longer holds every integer; Float32 rounding then needs the sticky bit below. */
const TWO_POW_21 = 2_097_152;
/** For |v| >= 2^53 the Float32 ulp is at least 2^30, so the bits below 2^29 only matter as "zero or not". */
const STICKY = 536_870_912;

/** The 32-bit words of a BigInt64Array / BigUint64Array, two per value. */
export function words(values: BigInt64Array | BigUint64Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
}

/** The double nearest to `hi * 2^32 + lo` (one IEEE rounding, as a C cast does). */
export function wideToNumber(hi: number, lo: number): number {
  return hi * TWO_POW_32 + lo;
}

/**
 * The Float32 nearest to `hi * 2^32 + lo`, rounded once (numpy's int64 ->
 * float32), not twice through a double: below 2^53 the double is exact; above,
 * the bits under 2^29 are replaced by one sticky bit, which keeps the value on
 * the same side of every Float32 and every midpoint between two.
 */
export function wideToFloat32(hi: number, lo: number): number {
  if (hi >= -TWO_POW_21 && hi < TWO_POW_21) return Math.fround(hi * TWO_POW_32 + lo);
  const low = lo % STICKY;
  const sticky = low === 0 ? 0 : STICKY / 2;
  return Math.fround(hi * TWO_POW_32 + (lo - low) + sticky);
}

/** The signed high word of an int64 product `(hi, lo) * m`, or NaN when it overflows int64 (m below 2^17). */
export function mulHi(hi: number, lo: number, m: number): number {
  const next = hi * m + Math.floor((lo * m) / TWO_POW_32);
  return next < -TWO_POW_31 || next >= TWO_POW_31 ? NaN : next;
}

/** The low word of an int64 product `(hi, lo) * m` (m below 2^17). */
export function mulLo(lo: number, m: number): number {
  return (lo * m) % TWO_POW_32;
}

/** The high word of `floor((hi, lo) / d)` for a signed value (d below 2^17). */
export function divHi(hi: number, d: number): number {
  return Math.floor(hi / d);
}

/**
 * The low word of `floor((hi, lo) / d)` (d below 2^17). `rest * 2^32 + lo` is
 * below 2^49, exact; its quotient's fraction is at least 1/d from an integer,
 * far above the rounding error, so Math.floor is exact.
 */
export function divLo(hi: number, lo: number, d: number): number {
  const rest = hi - Math.floor(hi / d) * d;
  return Math.floor((rest * TWO_POW_32 + lo) / d);
}

/** True when the signed `(hi, lo)` fits an Int32. */
export function fitsInt32(hi: number, lo: number): boolean {
  return hi === 0 ? lo < TWO_POW_31 : hi === -1 && lo >= TWO_POW_31;
}

/** The value `hi * 2^32 + lo` as a bigint, for error messages only. */
export function wideToBigInt(hi: number, lo: number): bigint {
  return BigInt(hi) * BigInt(TWO_POW_32) + BigInt(lo);
}
