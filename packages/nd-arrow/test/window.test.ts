import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  DurationNanosecond,
  DurationSecond,
  Float16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  LargeUtf8,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Uint8,
  Uint16,
  Uint32,
  Uint64,
  Utf8,
} from "apache-arrow";
import type { DataType } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assemble } from "../src/assemble.js";
import { NdRecordBatch } from "../src/batch.js";
import { CHUNK_OFFSET, chunk } from "../src/chunk.js";
import { isSupportedValueType } from "../src/schema.js";
import { NdArray } from "../src/ndarray.js";
import type { Dim } from "../src/ndarray.js";
import { resolveSelection, slice, type Window } from "../src/window.js";
import { gridArb, plainArray, plainBatch, subDimsArb } from "./grid-arbitraries.js";
import { errorOf } from "./thrown.js";

/** Every value type of FORMAT.md "Types", with an arbitrary of its JS values. */
const kinds: { name: string; type: () => DataType; value: fc.Arbitrary<unknown> }[] = [
  ...[Int8, Int16, Int32, Uint8, Uint16, Uint32].map((T) => ({
    name: T.name,
    type: () => new T(),
    value: fc.integer({ min: 0, max: 100 }),
  })),
  { name: "Int64", type: () => new Int64(), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) },
  { name: "Uint64", type: () => new Uint64(), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) },
  { name: "Float16", type: () => new Float16(), value: fc.integer({ min: -1000, max: 1000 }) },
  { name: "Float32", type: () => new Float32(), value: fc.float({ noNaN: true }) },
  { name: "Float64", type: () => new Float64(), value: fc.double({ noNaN: true }) },
  { name: "Bool", type: () => new Bool(), value: fc.boolean() },
  { name: "Utf8", type: () => new Utf8(), value: fc.string({ maxLength: 40 }) },
  { name: "LargeUtf8", type: () => new LargeUtf8(), value: fc.string({ maxLength: 6 }) },
  { name: "Binary", type: () => new Binary(), value: fc.uint8Array({ maxLength: 5 }) },
  ...[TimestampSecond, TimestampMillisecond, TimestampMicrosecond, TimestampNanosecond].map((T) => ({
    name: T.name,
    type: () => new T("UTC"),
    value: fc.bigInt({ min: 0n, max: 2n ** 50n }),
  })),
  { name: "DateDay", type: () => new DateDay(), value: fc.integer({ min: 0, max: 50_000 }) },
  { name: "DateMillisecond", type: () => new DateMillisecond(), value: fc.bigInt({ min: 0n, max: 2n ** 42n }) },
  { name: "TimeSecond", type: () => new TimeSecond(), value: fc.integer({ min: 0, max: 86_399 }) },
  { name: "TimeMillisecond", type: () => new TimeMillisecond(), value: fc.integer({ min: 0, max: 86_399_999 }) },
  { name: "TimeMicrosecond", type: () => new TimeMicrosecond(), value: fc.bigInt({ min: 0n, max: 86_399_999_999n }) },
  { name: "TimeNanosecond", type: () => new TimeNanosecond(), value: fc.bigInt({ min: 0n, max: 86_399_999_999_999n }) },
  { name: "DurationSecond", type: () => new DurationSecond(), value: fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }) },
  {
    name: "DurationNanosecond",
    type: () => new DurationNanosecond(),
    value: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  },
];

/** `[start, stop)` per grid dim. */
type Box = [number, number][];

/** The brute-force window: each cell of `array` inside `box` (on the array's dims), read one by one. */
function cut(array: NdArray, grid: readonly Dim[], box: Box): unknown {
  const values = Array.from(array.values as Iterable<unknown>);
  const ranges = array.dims.map((d) => box[grid.findIndex((g) => g.name === d.name)]!);
  const out: unknown[] = [];
  const walk = (k: number, at: number): void => {
    if (k === ranges.length) {
      out.push(values[at]);
      return;
    }
    for (let i = ranges[k]![0]; i < ranges[k]![1]; i++) walk(k + 1, at * array.dims[k]!.size + i);
  };
  walk(0, 0);
  const plain = plainArray(array) as { dims: [string, number][] };
  return { ...plain, dims: array.dims.map((d, k) => [d.name, ranges[k]![1] - ranges[k]![0]]), values: out };
}

/** A batch of one kind on `grid`: an array on all grid dims, one on a random subset, about one null in four. */
function batchArb(grid: Dim[], kind: (typeof kinds)[number]): fc.Arbitrary<NdRecordBatch> {
  const arrayArb = (dims: readonly Dim[]) => {
    const size = dims.reduce((n, d) => n * d.size, 1);
    return fc
      .array(fc.option(kind.value, { freq: 4 }), { minLength: size, maxLength: size })
      .map((values) => NdArray.from(values, { dims, type: kind.type(), attrs: { units: "K" } }));
  };
  return fc
    .tuple(arrayArb(grid), subDimsArb(grid).chain(arrayArb))
    .map(([main, other]) => new NdRecordBatch({ main, other }, { title: "t" }));
}

/** A grid, chunk sizes and a window (possibly empty along a dim) inside the grid. */
const caseArb = gridArb(6).chain((grid) =>
  fc.tuple(
    fc.constant(grid),
    fc.tuple(...grid.map((d) => fc.integer({ min: 1, max: d.size }))),
    fc.tuple(
      ...grid.map((d) =>
        fc
          .tuple(fc.integer({ min: 0, max: d.size }), fc.integer({ min: 0, max: d.size }))
          .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as [number, number]),
      ),
    ),
  ),
);

function startOf(c: NdRecordBatch): number[] {
  return Array.from(c.globalAttr(CHUNK_OFFSET) as Iterable<number>, Number);
}

describe("assemble with a window", () => {
  it("every value type of FORMAT.md 'Types' is covered by the property below", () => {
    for (const k of kinds) expect(isSupportedValueType(k.type())).toBe(true);
  });

  for (const kind of kinds) {
    it(`property (${kind.name}): the chunks a window touches, assembled with the window, equal assembling everything then cutting`, () => {
      const arb = caseArb.chain(([grid, sizes, box]) =>
        fc.tuple(fc.constant(grid), fc.constant(sizes), fc.constant(box), batchArb(grid, kind), fc.integer()),
      );
      const prop = fc.property(arb, ([grid, sizes, box, batch, shuffle]) => {
        const chunks = chunk(batch, Object.fromEntries(grid.map((d, i) => [d.name, sizes[i]!])));
        const touching = chunks.filter((c) => {
          const s = startOf(c);
          return c.grid().every((d, i) => s[i]! < box[i]![1] && box[i]![0] < s[i]! + d.size);
        });
        const picked = touching.length === 0 ? chunks : touching;
        const order = [...picked].sort((a, b) =>
          (startOf(a).join() + shuffle).localeCompare(startOf(b).join() + shuffle),
        );
        const window: Window = Object.fromEntries(grid.map((d, i) => [d.name, box[i]!]));
        const got = assemble(order, { window });
        const want = batch.arrays().map(([name, array]) => [name, cut(array, grid, box)]);
        expect(
          plainBatch(got.withGlobalAttrs(new Map([...got.globalAttrs].filter(([key]) => key !== CHUNK_OFFSET)))),
        ).toEqual({ globalAttrs: [["title", "Utf8", "t"]], arrays: want });
        const offset = box.some(([a]) => a > 0) ? box.map(([a]) => a) : undefined;
        expect(got.globalAttrs.has(CHUNK_OFFSET) ? startOf(got) : undefined).toEqual(offset);
      });
      fc.assert(prop, { seed: 11, numRuns: 40 });
    });
  }

  it("without a window, chunks not starting at cell 0 assemble to their box, with its chunk_offset", () => {
    const batch = new NdRecordBatch({
      t: NdArray.from(
        Int32Array.from({ length: 12 }, (_, i) => i),
        { dims: { time: 6, lat: 2 } },
      ),
    });
    const chunks = chunk(batch, { time: 2 });
    const got = assemble([chunks[2]!, chunks[1]!]);
    expect(got.get("t")?.shape).toEqual([4, 2]);
    expect(Array.from(got.get("t")!.values)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(startOf(got)).toEqual([2, 0]);
  });

  it("a window the chunks do not cover is ChunkMismatch naming an uncovered cell", () => {
    const batch = new NdRecordBatch({ t: NdArray.from(new Float64Array(12), { dims: { time: 6, lat: 2 } }) });
    const chunks = chunk(batch, { time: 2 });
    const err = errorOf(() => assemble([chunks[0]!, chunks[2]!], { window: { time: [1, 5] } }));
    expect(err.code).toBe("ChunkMismatch");
    expect(err.message).toMatch(/no chunk covers cell \[2, 0\]/);
  });

  it("a window outside the chunks or with bad bounds is InvalidArgument, on an unknown dim DimNotFound, naming the dim", () => {
    const batch = new NdRecordBatch({ t: NdArray.from(new Float64Array(12), { dims: { time: 6, lat: 2 } }) });
    const chunks = chunk(batch, { time: 2 });
    expect(errorOf(() => assemble(chunks, { window: { time: [4, 7] } })).message).toMatch(
      /"time" is \[4, 7\), outside the extent of the chunks \[0, 6\)/,
    );
    const unknown = errorOf(() => assemble(chunks, { window: { depth: [0, 1] } }));
    expect([unknown.code, unknown.message]).toEqual(["DimNotFound", expect.stringMatching(/"depth"/)]);
    expect(errorOf(() => assemble(chunks, { window: { time: [3, 1] } })).code).toBe("InvalidArgument");
    expect(errorOf(() => assemble(chunks, { window: { time: [0.5, 1] } as never })).code).toBe("InvalidArgument");
  });
});

describe("slice", () => {
  for (const kind of kinds) {
    it(`property (${kind.name}): slice equals the brute-force cut`, () => {
      const arb = caseArb.chain(([grid, , box]) => fc.tuple(fc.constant(grid), fc.constant(box), batchArb(grid, kind)));
      const prop = fc.property(arb, ([grid, box, batch]) => {
        for (const [, array] of batch.arrays()) {
          const window: Window = Object.fromEntries(
            array.dims.map((d) => [d.name, box[grid.findIndex((g) => g.name === d.name)]!]),
          );
          expect(plainArray(slice(array, window))).toEqual(cut(array, grid, box));
        }
      });
      fc.assert(prop, { seed: 12, numRuns: 25 });
    });
  }

  it("a window that covers the array returns the array itself", () => {
    const a = NdArray.from(new Float32Array(6), { dims: { y: 2, x: 3 } });
    expect(slice(a, { x: [0, 3] })).toBe(a);
  });
});

describe("resolveSelection", () => {
  const dims = [
    { name: "time", size: 7 },
    { name: "lat", size: 3 },
  ];

  it("property: a range keeps the cells Array.prototype.slice keeps (Python slice rules); an index picks one cell and drops the dim", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: -12, max: 12 }),
        fc.integer({ min: -12, max: 12 }),
        (size, a, b) => {
          const cells = Array.from({ length: size }, (_, i) => i);
          const [range] = resolveSelection({ x: [a, b] }, [{ name: "x", size }], "the array");
          expect(cells.slice(range!.start, range!.stop)).toEqual(cells.slice(a, b));
          expect(range!.drop).toBe(false);
          if (size > 0 && a >= -size && a < size) {
            const [index] = resolveSelection({ x: a }, [{ name: "x", size }], "the array");
            expect(index).toEqual({ name: "x", start: cells.at(a), stop: cells.at(a)! + 1, drop: true });
          }
        },
      ),
      { seed: 7, numRuns: 300 },
    );
  });

  it("an unknown dim is DimNotFound naming the dims there are; a bad value or an index outside is InvalidArgument naming the dim", () => {
    const unknown = errorOf(() => resolveSelection({ depth: [0, 1] }, dims, 'variable "sst"'));
    expect([unknown.code, unknown.message]).toEqual(["DimNotFound", expect.stringMatching(/"depth".*\[time, lat\]/)]);
    const outside = errorOf(() => resolveSelection({ lat: 3 }, dims, 'variable "sst"'));
    expect([outside.code, outside.message]).toEqual(["InvalidArgument", expect.stringMatching(/index 3 along "lat"/)]);
    for (const bad of [{ lat: 0.5 }, { lat: [0, 1, 2] }, { lat: "0" }, { lat: [0, 1.5] }])
      expect(errorOf(() => resolveSelection(bad as never, dims, "the array")).code).toBe("InvalidArgument");
    expect(errorOf(() => resolveSelection(null as never, dims, "the array")).code).toBe("InvalidArgument");
  });
});
