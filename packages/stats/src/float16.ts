/**
 * The number that the IEEE 754 half-precision `bits` encode: ±0 keeps its
 * sign, subnormals decode exactly, exponent 31 gives ±Infinity or NaN.
 */
export function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (0x400 + fraction) * 2 ** (exponent - 25);
}
