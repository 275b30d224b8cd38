import { createRequire } from "node:module";
import * as esm from "apache-arrow";
import { describe, expect, it } from "vitest";
import { canCast, castVector, promoteTypes, sameType } from "../src/index.js";

// lancedb loads the CommonJS build of apache-arrow next to the ESM one: its
// classes are different objects, so instanceof would fail across them.
const cjs = createRequire(import.meta.url)("apache-arrow") as typeof esm;

describe("types and vectors from a second copy of apache-arrow", () => {
  it("the CommonJS copy really has other classes", () => {
    expect(cjs.Int32).not.toBe(esm.Int32);
  });

  it("sameType, canCast and promoteTypes decide on typeId and parameters", () => {
    expect(sameType(new cjs.TimestampSecond("UTC"), new esm.TimestampSecond("UTC"))).toBe(true);
    expect(canCast(new cjs.Int32(), new esm.Float64(), "safe")).toBe(true);
    expect(String(promoteTypes(new cjs.Uint8(), new esm.Int8()))).toBe("Int16");
  });

  it("castVector reads a vector built by the other copy", () => {
    const v = cjs.vectorFromArray([1, null, 3], new cjs.Int32());
    const out = castVector(v as unknown as esm.Vector, new esm.Float64(), "safe");
    expect([out.get(0), out.get(1), out.get(2)]).toEqual([1, null, 3]);
  });
});
