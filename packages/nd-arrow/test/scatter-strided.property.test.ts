/**
 * Property: `scatterStrided` places every part's walk where a plain
 * per-index copy does, over random grids of 1 to 4 dims (sizes 0 to 7) cut
 * into random tiles, each read as a window at a random offset of a bigger
 * source, or broadcast along some dims. Tiles of width 1 give runs of one
 * value; dims of size 0 give empty walks.
 */
import {
  Bool,
  Float16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int64,
  Uint64,
  Utf8,
  makeVector,
  vectorFromArray,
} from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowMajorStrides, scatterStrided } from "../src/strided.js";
import { seededRandom } from "@lance-nd/test-helpers";

/** One dim of the grid: its size, where it is cut into tiles, and a seed for the tiles' windows. */
interface DimCut {
  size: number;
  cuts: number[];
}

const dimArb: fc.Arbitrary<DimCut> = fc
  .integer({ min: 0, max: 7 })
  .chain((size) =>
    fc.record({ size: fc.constant(size), cuts: fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, size - 1) })) }),
  );

/** A tiling of a grid into boxes, and how each box is read from its source. */
interface Layout {
  grid: number[];
  boxes: { sizes: number[]; start: number[]; source: number[]; offset: number[]; broadcast: boolean[] }[];
}

const layoutArb: fc.Arbitrary<Layout> = fc
  .record({ dims: fc.array(dimArb, { minLength: 1, maxLength: 4 }), seed: fc.integer() })
  .map(({ dims, seed }) => layout(dims, seed));

/** A deterministic generator of integers in [0, n) for each box's padding and broadcast dims. */
function random(seed: number): (n: number) => number {
  const next = seededRandom(seed);
  return (n) => Math.floor(next() * n);
}

function layout(dims: DimCut[], seed: number): Layout {
  const next = random(seed);
  const segments = dims.map(({ size, cuts }) => {
    const edges = [0, ...cuts.filter((c) => c < size).sort((a, b) => a - b), size];
    return size === 0 ? [[0, 0] as const] : edges.slice(1).map((end, i) => [edges[i]!, end] as const);
  });
  let tiles: (readonly (readonly [number, number])[])[] = [[]];
  for (const segs of segments) tiles = tiles.flatMap((t) => segs.map((s) => [...t, s]));
  const boxes = tiles.map((tile) => {
    const sizes = tile.map(([a, b]) => b - a);
    const broadcast = sizes.map((n) => n > 0 && next(4) === 0);
    const offset = sizes.map((_, d) => (broadcast[d] ? 0 : next(3)));
    const source = sizes.map((n, d) => (broadcast[d] ? 1 : n + offset[d]! + next(3)));
    return { sizes, start: tile.map(([a]) => a), source, offset, broadcast };
  });
  return { grid: dims.map((d) => d.size), boxes };
}

function dot(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, x, i) => sum + x * b[i]!, 0);
}

/** Every coordinate of a walk of shape `sizes`, row-major. */
function coordinates(sizes: readonly number[]): number[][] {
  let all: number[][] = [[]];
  for (const n of sizes) all = all.flatMap((c) => Array.from({ length: n }, (_, i) => [...c, i]));
  return all;
}

/** The parts of `layout` over sources made by `source(k, length)`, and for each grid position its (part, source index). */
function parts(layout: Layout, source: (k: number, length: number) => Vector) {
  const strides = rowMajorStrides(layout.grid);
  const length = layout.grid.reduce((n, s) => n * s, 1);
  const origin = new Array<[number, number]>(length);
  const placed = layout.boxes.map((box, k) => {
    const sourceStrides = rowMajorStrides(box.source).map((s, d) => (box.broadcast[d] ? 0 : s));
    const sourceStart = dot(box.offset, sourceStrides);
    for (const c of coordinates(box.sizes)) {
      origin[dot(box.start, strides) + dot(c, strides)] = [k, sourceStart + dot(c, sourceStrides)];
    }
    const values = source(
      k,
      box.source.reduce((n, s) => n * s, 1),
    );
    return { values, sizes: box.sizes, start: dot(box.start, strides), sourceStart, sourceStrides };
  });
  return { placed, strides, length, origin };
}

const fixedTypes: DataType[] = [
  new Int8(),
  new Int16(),
  new Float16(),
  new Float32(),
  new Float64(),
  new Int64(),
  new Uint64(),
];

describe("scatterStrided (property)", () => {
  it("copies fixed-width values bit for bit where a per-index copy puts them", () => {
    fc.assert(
      fc.property(layoutArb, fc.constantFrom(...fixedTypes), fc.integer(), (layout, type, seed) => {
        const next = random(seed);
        const width = (type.ArrayType as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
        const Ctor = type.ArrayType as unknown as new (b: ArrayBuffer) => ArrayLike<unknown>;
        const bytes: Uint8Array[] = [];
        const { placed, strides, length, origin } = parts(layout, (k, n) => {
          bytes[k] = Uint8Array.from({ length: n * width }, () => next(256));
          return makeVector(new Ctor(bytes[k]!.buffer as ArrayBuffer) as never) as Vector;
        });
        const got = scatterStrided(placed, strides, length).data[0]!.values;
        const expected = new Uint8Array(length * width);
        for (const [at, [k, i]] of origin.entries()) {
          expected.set(bytes[k]!.subarray(i * width, (i + 1) * width), at * width);
        }
        expect(new Uint8Array(got.buffer, got.byteOffset, got.byteLength)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("places strings, booleans and values with nulls where a per-index copy puts them", () => {
    const kinds: { type: DataType; value: (i: number) => unknown }[] = [
      { type: new Utf8(), value: (i) => (i % 3 === 0 ? null : `s${i}`) },
      { type: new Bool(), value: (i) => i % 3 === 1 },
      { type: new Float64(), value: (i) => (i % 4 === 2 ? null : i / 2) },
    ];
    fc.assert(
      fc.property(layoutArb, fc.constantFrom(...kinds), (layout, kind) => {
        const sources: unknown[][] = [];
        const { placed, strides, length, origin } = parts(layout, (k, n) => {
          sources[k] = Array.from({ length: n }, (_, i) => kind.value(k * 100 + i));
          return vectorFromArray(sources[k]!, kind.type) as Vector;
        });
        const expected = origin.map(([k, i]) => sources[k]![i]);
        expect(Array.from(scatterStrided(placed, strides, length))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
