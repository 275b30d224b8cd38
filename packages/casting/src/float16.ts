import { util } from "apache-arrow";

/**
 * IEEE 754 half precision (binary16), the storage of Arrow's Float16: values
 * are kept as their 16 bits in a Uint16Array.
 */

const TWO_POW_24 = 16_777_216;
/** 65504 (the largest half) plus half an ulp: from here on a value rounds to infinity. */
const OVERFLOW = 65_520;
/** 2^-14, the smallest normal half. */
const MIN_NORMAL = 1 / 16_384;

/**
 * The number that half-precision `bits` encode (exact: every half is a
 * double). The same decoding as apache-arrow's Float16 vectors.
 *
 * @example float16ToNumber(0x3c00); // 1
 */
export const float16ToNumber: (bits: number) => number = util.uint16ToFloat64;

/**
 * The half-precision bits nearest to `value`, rounding half to even as IEEE
 * (and numpy) do, straight from the double (no double rounding through
 * Float32). Overflow gives ±Infinity, -0 stays -0, NaN stays NaN (JS cannot see a NaN's sign).
 *
 * @example numberToFloat16(1 + 2 ** -11); // 0x3c00 (a tie, rounded to the even 1)
 */
export function numberToFloat16(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(value);
  if (magnitude >= OVERFLOW) return sign | 0x7c00;
  if (magnitude < MIN_NORMAL) {
    // Subnormal: a multiple of 2^-24. A result of 1024 is the smallest normal, which the bits encode as is.
    return sign | roundHalfEven(magnitude * TWO_POW_24);
  }
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent--;
  else if (2 ** (exponent + 1) <= magnitude) exponent++;
  let mantissa = roundHalfEven((magnitude / 2 ** exponent - 1) * 1024);
  if (mantissa === 1024) {
    mantissa = 0;
    exponent++;
  }
  if (exponent > 15) return sign | 0x7c00;
  return sign | ((exponent + 15) << 10) | mantissa;
}

/** Round a non-negative number to an integer, ties to even. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  return rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
}
