import { Float16, Float32, Float64, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64 } from "apache-arrow";
import type { DataType } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canCast, castVector, type NumericArray } from "../src/index.js";
import { vectorOf } from "./vectors.js";

type Raw = NumericArray;

interface Numeric {
  readonly name: string;
  readonly type: DataType;
  /** Random raw values of the type, as its storage holds them. */
  readonly values: (n: number) => fc.Arbitrary<Raw>;
}

const ints = (make: (xs: number[]) => Raw, min: number, max: number) => (n: number) =>
  fc.array(fc.integer({ min, max }), { minLength: n, maxLength: n }).map(make);
const bigints = (make: (xs: bigint[]) => Raw, min: bigint, max: bigint) => (n: number) =>
  fc.array(fc.bigInt({ min, max }), { minLength: n, maxLength: n }).map(make);

const NUMERIC: readonly Numeric[] = [
  { name: "Int8", type: new Int8(), values: ints((xs) => Int8Array.from(xs), -128, 127) },
  { name: "Int16", type: new Int16(), values: ints((xs) => Int16Array.from(xs), -32768, 32767) },
  { name: "Int32", type: new Int32(), values: ints((xs) => Int32Array.from(xs), -(2 ** 31), 2 ** 31 - 1) },
  { name: "Int64", type: new Int64(), values: bigints((xs) => BigInt64Array.from(xs), -(2n ** 63n), 2n ** 63n - 1n) },
  { name: "UInt8", type: new Uint8(), values: ints((xs) => Uint8Array.from(xs), 0, 255) },
  { name: "UInt16", type: new Uint16(), values: ints((xs) => Uint16Array.from(xs), 0, 65535) },
  { name: "UInt32", type: new Uint32(), values: ints((xs) => Uint32Array.from(xs), 0, 2 ** 32 - 1) },
  { name: "UInt64", type: new Uint64(), values: bigints((xs) => BigUint64Array.from(xs), 0n, 2n ** 64n - 1n) },
  // Float16 bits without NaN payloads (a NaN comes back as the one canonical NaN).
  {
    name: "Float16",
    type: new Float16(),
    values: ints(
      (xs) => Uint16Array.from(xs, (b) => ((b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0 ? 0x7e00 : b)),
      0,
      65535,
    ),
  },
  {
    name: "Float32",
    type: new Float32(),
    values: (n) => fc.array(fc.float(), { minLength: n, maxLength: n }).map((xs) => Float32Array.from(xs)),
  },
  {
    name: "Float64",
    type: new Float64(),
    values: (n) => fc.array(fc.double(), { minLength: n, maxLength: n }).map((xs) => Float64Array.from(xs)),
  },
];

/** Pairs where A -> B is safe and B -> A is allowed back under same_kind. */
const ROUND_TRIPS = NUMERIC.flatMap((a) =>
  NUMERIC.filter((b) => a !== b && canCast(a.type, b.type, "safe") && canCast(b.type, a.type, "same_kind")).map(
    (b) => [a, b] as const,
  ),
);

/** Raw values as comparable numbers/bigints; NaN equals NaN; -0 differs from 0. */
function same(x: unknown, y: unknown): boolean {
  return Object.is(x, y) || (typeof x === "number" && typeof y === "number" && Number.isNaN(x) && Number.isNaN(y));
}

describe("castVector round trip", () => {
  it("covers widening within each kind (the only safe casts same_kind can undo)", () => {
    const names = ROUND_TRIPS.map(([a, b]) => `${a.name} -> ${b.name}`);
    expect(names).toEqual(
      expect.arrayContaining(["Int8 -> Int64", "UInt32 -> UInt64", "Float16 -> Float64", "Float32 -> Float64"]),
    );
  });

  it("a safe cast A -> B, then B -> A under same_kind, gives back every value and null", () => {
    const input = fc
      .tuple(fc.constantFrom(...ROUND_TRIPS), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 9 }))
      .chain(([pair, n, offset]) =>
        fc.record({
          pair: fc.constant(pair),
          offset: fc.constant(offset),
          values: pair[0].values(n + offset),
          valid: fc.array(fc.boolean(), { minLength: n + offset, maxLength: n + offset }),
        }),
      );
    fc.assert(
      fc.property(input, ({ pair: [a, b], offset, values, valid }) => {
        const original = vectorOf(a.type, values, valid).slice(offset);
        const back = castVector(castVector(original, b.type, "safe"), a.type, "same_kind");
        const raw = back.data[0]!.values as Raw;
        const rawIn = values.subarray(offset) as Raw;
        for (let i = 0; i < original.length; i++) {
          expect(back.isValid(i)).toBe(original.isValid(i));
          if (original.isValid(i) && !same(raw[i], rawIn[i]))
            throw new Error(`${a.name} -> ${b.name}: ${raw[i]} != ${rawIn[i]} at ${i}`);
        }
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
