import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  Duration,
  Float16,
  Float32,
  Float64,
  Int64,
  Int8,
  LargeUtf8,
  Table,
  Time,
  TimeUnit,
  Timestamp,
  Uint8,
  Utf8,
  tableFromIPC,
  tableToIPC,
  type DataType,
} from "apache-arrow";
import { NdArray, NdRecordBatch, attr, decode, encode, type Attrs } from "../src/index.js";

/** One value type per array name, so rows never conflict; each with a generator of JS values. */
const TYPES: [string, () => DataType, fc.Arbitrary<unknown>][] = [
  ["f64", () => new Float64(), fc.double()],
  ["f32", () => new Float32(), fc.float({ noDefaultInfinity: true }).map(Math.fround)],
  ["f16", () => new Float16(), fc.integer({ min: -2048, max: 2048 }).map((i) => i / 2)],
  ["i8", () => new Int8(), fc.integer({ min: -128, max: 127 })],
  ["u8", () => new Uint8(), fc.integer({ min: 0, max: 255 })],
  ["i64", () => new Int64(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })],
  ["bool", () => new Bool(), fc.boolean()],
  ["str", () => new Utf8(), fc.string()],
  ["lstr", () => new LargeUtf8(), fc.string({ unit: "grapheme" })],
  ["bin", () => new Binary(), fc.uint8Array({ maxLength: 4 })],
  ["ts_tz", () => new Timestamp(TimeUnit.NANOSECOND, "Asia/Tokyo"), fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n })],
  ["ts", () => new Timestamp(TimeUnit.SECOND), fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n })],
  ["d32", () => new DateDay(), fc.integer({ min: -100_000, max: 100_000 })],
  ["d64", () => new DateMillisecond(), fc.integer({ min: -1e6, max: 1e6 }).map((d) => BigInt(d) * 86_400_000n)],
  ["t32", () => new Time(TimeUnit.MILLISECOND, 32), fc.integer({ min: 0, max: 86_399_999 })],
  ["t64", () => new Time(TimeUnit.MICROSECOND, 64), fc.bigInt({ min: 0n, max: 86_399_999_999n })],
  ["dur", () => new Duration(TimeUnit.MILLISECOND), fc.bigInt({ min: -(2n ** 50n), max: 2n ** 50n })],
];

/** One attribute kind per key, so rows never conflict. */
const ATTRS: Record<string, fc.Arbitrary<unknown>> = {
  units: fc.string(),
  scale: fc.double({ noNaN: true }),
  flag: fc.boolean(),
  count: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  range: fc.array(fc.double({ noNaN: true }), { maxLength: 3 }),
  // an empty JS array is List<Float64>: string lists that may be empty use the typed helper
  names: fc.array(fc.string(), { maxLength: 3 }).map((v) => attr.utf8(v)),
  when: fc.integer({ min: 0, max: 2 ** 40 }).map((ms) => new Date(ms)),
  codes: fc.array(fc.integer({ min: -128, max: 127 }), { maxLength: 3 }).map((v) => attr.int8(v)),
  half: fc.integer({ min: -8, max: 8 }).map((v) => attr.float16(v / 4)),
};

const attrsArb = fc
  .dictionary(fc.constantFrom(...Object.keys(ATTRS)), fc.constant(null), { maxKeys: 4 })
  .chain((keys) => fc.record(Object.fromEntries(Object.keys(keys).map((k) => [k, ATTRS[k]!]))));

const DIMS = ["t", "z", "y", "x"];

const batchArb: fc.Arbitrary<NdRecordBatch> = fc
  .record({
    sizes: fc.tuple(...DIMS.map(() => fc.integer({ min: 0, max: 3 }))),
    arrays: fc.uniqueArray(fc.integer({ min: 0, max: TYPES.length - 1 }), { maxLength: 4 }),
    globals: attrsArb,
  })
  .chain(({ sizes, arrays, globals }) =>
    fc
      .tuple(
        ...arrays.map((t) =>
          fc.subarray(DIMS).chain((dims) => {
            const n = dims.reduce((p, d) => p * sizes[DIMS.indexOf(d)]!, 1);
            const [, type, values] = TYPES[t]!;
            return fc.record({
              t: fc.constant(t),
              dims: fc.constant(dims),
              values: fc.array(fc.option(values, { nil: null, freq: 4 }), { minLength: n, maxLength: n }),
              attrs: attrsArb,
              type: fc.constant(type),
            });
          }),
        ),
      )
      .map(
        (specs) =>
          new NdRecordBatch(
            specs.map((s): [string, NdArray] => [
              TYPES[s.t]![0],
              NdArray.from(s.values, {
                type: s.type(),
                dims: s.dims.map((d) => [d, sizes[DIMS.indexOf(d)]!] as const),
                attrs: s.attrs as never,
              }),
            ]),
            globals as never,
          ),
      ),
  );

/** Order-free description: rows share the union column and key order, so order within a row may change. */
function attrsOf(attrs: Attrs) {
  return [...attrs]
    .map(([k, a]) => [k, String(a.type), a.toJS()])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

function describeBatch(b: NdRecordBatch) {
  return {
    arrays: b
      .arrays()
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, a]) => ({
        name,
        type: String(a.type),
        dims: a.dims,
        values: Array.from(a.values),
        attrs: attrsOf(a.attrs),
      })),
    globals: attrsOf(b.globalAttrs),
  };
}

describe("round trip (fast-check, seed 42)", () => {
  it("decode(encode(rows)) gives the rows back: types, dims (incl. size 0, rank 0), values, nulls, attributes", () => {
    fc.assert(
      fc.property(fc.array(batchArb, { minLength: 1, maxLength: 4 }), (rows) => {
        const rb = encode(rows);
        const expected = rows.map(describeBatch);
        expect(decode(rb, { nulls: "absent" }).map(describeBatch)).toEqual(expected);
        const viaIpc = tableFromIPC(tableToIPC(new Table(rb))).batches[0]!;
        expect(decode(viaIpc, { nulls: "absent" }).map(describeBatch)).toEqual(expected);
      }),
      { seed: 42, numRuns: 40 },
    );
  });

  it("rank-0 scalars and a null value of every type round-trip", () => {
    for (const [name, type] of TYPES) {
      const batch = new NdRecordBatch({ [name]: NdArray.scalar(null, { type: type() }) });
      const [back] = decode(encode([batch]));
      expect(describeBatch(back!)).toEqual(describeBatch(batch));
      expect(back!.get(name)!.rank).toBe(0);
    }
  });
});
