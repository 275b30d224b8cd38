import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divHi, divLo, mulHi, mulLo, wideToBigInt, wideToFloat32 } from "../src/wide.js";

const TWO_32 = 2n ** 32n;
const INT64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const STEP = fc.constantFrom(1000, 86_400);

/** The halves of a signed 64-bit value. */
function halves(x: bigint): [number, number] {
  return [Number(BigInt.asIntN(32, x >> 32n)), Number(BigInt.asUintN(32, x))];
}

/** The Float32 nearest to x, ties to even: exact below 2^53, else by BigInt comparison with the neighbours of a guess. */
function nearestFloat32(x: bigint): number {
  const guess = Math.fround(Number(x));
  if (x > -(2n ** 53n) && x < 2n ** 53n) return guess;
  const bitsOf = (f: number) => new Uint32Array(new Float32Array([f]).buffer)[0]!;
  const fromBits = (b: number) => new Float32Array(new Uint32Array([b]).buffer)[0]!;
  const distance = (f: number) => (BigInt(f) > x ? BigInt(f) - x : x - BigInt(f));
  let best = guess;
  for (const c of [fromBits(bitsOf(guess) - 1), fromBits(bitsOf(guess) + 1)]) {
    if (!Number.isFinite(c)) continue;
    const [dc, db] = [distance(c), distance(best)];
    if (dc < db || (dc === db && (bitsOf(c) & 1) === 0)) best = c;
  }
  return best;
}

describe("64-bit arithmetic on halves", () => {
  it("wideToFloat32 rounds once to the nearest Float32, ties to even (signed and unsigned)", () => {
    expect(wideToFloat32(...halves(2n ** 62n + 2n ** 38n + 1n))).toBe(2 ** 62 + 2 ** 39);
    const unsigned = 2n ** 63n + 2n ** 39n + 1n; // UInt64: hi as an unsigned word
    expect(wideToFloat32(Number(unsigned / TWO_32), Number(unsigned % TWO_32))).toBe(2 ** 63 + 2 ** 40);
    fc.assert(
      fc.property(INT64, (x) => wideToFloat32(...halves(x)) === nearestFloat32(x)),
      { seed: 42, numRuns: 2000 },
    );
  });

  it("mulHi/mulLo multiply exactly and report overflow beyond Int64", () => {
    fc.assert(
      fc.property(INT64, STEP, (x, m) => {
        const [hi, lo] = halves(x);
        const exact = x * BigInt(m);
        const fits = exact === BigInt.asIntN(64, exact);
        const next = mulHi(hi, lo, m);
        return fits ? wideToBigInt(next, mulLo(lo, m)) === exact : Number.isNaN(next);
      }),
      { seed: 42, numRuns: 2000 },
    );
  });

  it("divHi/divLo floor-divide exactly, negatives toward -Infinity", () => {
    fc.assert(
      fc.property(INT64, STEP, (x, d) => {
        const [hi, lo] = halves(x);
        const q = x / BigInt(d);
        const floor = q * BigInt(d) > x ? q - 1n : q;
        return wideToBigInt(divHi(hi, d), divLo(hi, lo, d)) === floor;
      }),
      { seed: 42, numRuns: 2000 },
    );
  });
});
