/**
 * fast-check arbitraries and comparison helpers shared by the grid tests
 * (broadcast, flatten, chunk): random grids, and batches of arrays of
 * several value types with nulls whose dims are random subsets of the grid
 * in random order.
 */
import { Bool, Float64, Int32, Int64, LargeUtf8, TimestampMillisecond, Utf8 } from "apache-arrow";
import type { DataType } from "apache-arrow";
import fc from "fast-check";
import { NdArray } from "../src/ndarray.js";
import type { Dim } from "../src/ndarray.js";
import { NdRecordBatch } from "../src/batch.js";

/** A value type and an arbitrary of its JS values. */
export interface ValueKind {
  type: () => DataType;
  value: fc.Arbitrary<unknown>;
}

const kinds: ValueKind[] = [
  { type: () => new Float64(), value: fc.double({ noNaN: true }) },
  { type: () => new Int32(), value: fc.integer() },
  { type: () => new Int64(), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) },
  { type: () => new Utf8(), value: fc.string({ maxLength: 6 }) },
  { type: () => new LargeUtf8(), value: fc.string({ maxLength: 6 }) },
  { type: () => new Bool(), value: fc.boolean() },
  { type: () => new TimestampMillisecond("UTC"), value: fc.integer({ min: 0, max: 2 ** 40 }) },
];

/** One of the value kinds the grid tests use. */
export const kindArb: fc.Arbitrary<ValueKind> = fc.constantFrom(...kinds);

/** A grid of 0 to 3 dims named d0, d1, ... with sizes 1 to `maxSize`. */
export function gridArb(maxSize = 4): fc.Arbitrary<Dim[]> {
  return fc
    .array(fc.integer({ min: 1, max: maxSize }), { maxLength: 3 })
    .map((sizes) => sizes.map((size, i) => ({ name: `d${i}`, size })));
}

/** Some of `grid`'s dims, in a random order. */
export function subDimsArb(grid: readonly Dim[]): fc.Arbitrary<Dim[]> {
  return fc.shuffledSubarray([...grid]).chain((dims) => fc.shuffledSubarray(dims, { minLength: dims.length }));
}

/** An array with `dims`, of `kind` or a random one, values with about one null in four. */
export function arrayArb(dims: readonly Dim[], kind?: ValueKind): fc.Arbitrary<NdArray> {
  const size = dims.reduce((n, d) => n * d.size, 1);
  return (kind === undefined ? kindArb : fc.constant(kind)).chain((k) =>
    fc
      .array(fc.option(k.value, { freq: 4 }), { minLength: size, maxLength: size })
      .map((values) => NdArray.from(values, { dims, type: k.type(), attrs: { n: size } })),
  );
}

/** A batch on `grid`: one array with all grid dims first, then 0 to 3 arrays on sub-grids. */
export function batchOnGridArb(grid: readonly Dim[]): fc.Arbitrary<NdRecordBatch> {
  return fc
    .tuple(arrayArb(grid), fc.array(subDimsArb(grid).chain(arrayArb), { maxLength: 3 }))
    .map(
      ([main, others]) =>
        new NdRecordBatch([["main", main], ...others.map((a, i) => [`v${i}`, a] as const)], { title: "t" }),
    );
}

/** A random batch on a random grid. */
export function batchArb(maxSize = 4): fc.Arbitrary<NdRecordBatch> {
  return gridArb(maxSize).chain(batchOnGridArb);
}

/** A plain view of an array for `toEqual`: dims, type, attributes, values (nulls as null). */
export function plainArray(array: NdArray): unknown {
  return {
    dims: array.dims.map((d) => [d.name, d.size]),
    type: String(array.type),
    attrs: [...array.attrs].map(([k, a]) => [k, String(a.type), a.toJS()]),
    values: Array.from(array.values),
  };
}

/** A plain view of a batch for `toEqual`. */
export function plainBatch(batch: NdRecordBatch): unknown {
  return {
    globalAttrs: [...batch.globalAttrs].map(([k, a]) => [k, String(a.type), a.toJS()]),
    arrays: batch.arrays().map(([name, array]) => [name, plainArray(array)]),
  };
}
