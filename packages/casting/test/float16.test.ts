import { pythonSkipReason } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { float16ToNumber, numberToFloat16 } from "../src/index.js";
import { float16Mismatches, float16Vectors, numpyFloat16Vectors } from "./float16-vectors.js";

const numpySkip = pythonSkipReason("numpy float16 oracle", ["numpy"], "apt-get install python3-numpy");

describe("Float16 conversion", () => {
  it("decodes normals, subnormals, zeros, infinities and NaN", () => {
    expect(float16ToNumber(0x3c00)).toBe(1);
    expect(float16ToNumber(0xc000)).toBe(-2);
    expect(float16ToNumber(0x7bff)).toBe(65504);
    expect(float16ToNumber(0x0001)).toBe(2 ** -24);
    expect(float16ToNumber(0x0400)).toBe(2 ** -14);
    expect(Object.is(float16ToNumber(0x8000), -0)).toBe(true);
    expect(float16ToNumber(0x7c00)).toBe(Infinity);
    expect(float16ToNumber(0xfc00)).toBe(-Infinity);
    expect(float16ToNumber(0x7e00)).toBeNaN();
  });

  it("every half round-trips through a number", () => {
    const wrong: number[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      const nan = ((bits >> 10) & 0x1f) === 0x1f && (bits & 0x3ff) !== 0; // NaN payloads are not kept
      if (!nan && numberToFloat16(float16ToNumber(bits)) !== bits) wrong.push(bits);
    }
    expect(wrong).toEqual([]);
  });

  it("rounds half to even", () => {
    expect(numberToFloat16(1 + 2 ** -11)).toBe(0x3c00); // tie between 1 and 1 + 2^-10: even is 1
    expect(numberToFloat16(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie between 1 + 2^-10 and 1 + 2^-9: even is the upper
    expect(numberToFloat16(1 + 2 ** -11 + 2 ** -30)).toBe(0x3c01); // just above the tie
    expect(numberToFloat16(2 ** -25)).toBe(0); // half the smallest subnormal: ties to 0
    expect(numberToFloat16(3 * 2 ** -25)).toBe(0x0002); // subnormal tie to even
    expect(numberToFloat16(1023.5 * 2 ** -24)).toBe(0x0400); // subnormal tie rounds up into the smallest normal
  });

  it("overflows to infinity from 65520 on, as IEEE does", () => {
    expect(numberToFloat16(65519.99)).toBe(0x7bff);
    expect(numberToFloat16(65520)).toBe(0x7c00);
    expect(numberToFloat16(-1e10)).toBe(0xfc00);
  });

  it("keeps -0, infinities and NaN", () => {
    expect(numberToFloat16(-0)).toBe(0x8000);
    expect(numberToFloat16(Infinity)).toBe(0x7c00);
    expect(float16ToNumber(numberToFloat16(NaN))).toBeNaN();
  });

  it("agrees with an exact rounding by search on random doubles", () => {
    // The nearest half by brute force over all finite halves, ties to the even pattern.
    const halves = Array.from({ length: 0x7c00 }, (_, bits) => float16ToNumber(bits));
    let seed = 7;
    for (let n = 0; n < 300; n++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const x = (seed / 2 ** 31) * 2 ** ((seed % 40) - 24);
      let best = 0;
      for (let bits = 1; bits < halves.length; bits++) {
        const d = Math.abs(halves[bits]! - x) - Math.abs(halves[best]! - x);
        if (d < 0 || (d === 0 && bits % 2 === 0)) best = bits;
      }
      const expected = x >= 65520 ? 0x7c00 : best;
      expect(numberToFloat16(x)).toBe(expected);
    }
  });

  it("matches numpy on the committed vectors: overflow, subnormals, underflow, ties, NaN, -0 and 400 seeded doubles", () => {
    const vectors = float16Vectors();
    expect(vectors.length).toBeGreaterThan(400);
    expect(float16Mismatches(vectors, numberToFloat16)).toEqual([]);
  });

  it.skipIf(numpySkip !== undefined)(
    "the committed vectors are what numpy computes (under CI the oracle must be there)",
    () => {
      const live = numpyFloat16Vectors();
      if (typeof live === "string") throw new Error(live);
      expect(live).toEqual(float16Vectors());
    },
  );
});
