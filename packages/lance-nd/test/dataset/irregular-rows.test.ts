/**
 * Datasets whose rows are cut at different places along different dims
 * (seeded random guillotine layouts that tile the grid), with variables on
 * every dim, on some of them (in another order) and on none: `isel(...)`
 * `.read()` of random windows equals the same cells assembled here from
 * the source values, and `blocks([name])` gives each cell of a variable
 * exactly once; `sel` on the coordinate `x` selects what `isel` does. Real
 * tables written with lance-nd's `write`.
 */
import { Float64 } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seededRandom } from "@lance-nd/test-helpers";
import { dataset, write } from "../../src/index.js";

/** The grid: time, y, x. */
const DIMS = ["time", "y", "x"] as const;

/** The variables: their dims (grid positions) and the value at a grid cell (distinct, so a misplaced cell shows). */
const VARIABLES: Record<string, { dims: number[]; value: (cell: readonly number[]) => number }> = {
  v: { dims: [0, 1, 2], value: ([t, y, x]) => 10_000 * t! + 100 * y! + x! },
  t1: { dims: [0], value: ([t]) => 1.5 * t! },
  yx: { dims: [1, 2], value: ([, y, x]) => 100 * y! + x! + 0.25 },
  xt: { dims: [2, 0], value: ([t, , x]) => 1000 * x! + t! + 0.5 },
  s: { dims: [], value: () => 42 },
  x: { dims: [2], value: ([, , x]) => 10 * x! },
};

interface Box {
  start: number[];
  size: number[];
}

/** `box` cut in two along a random dim at a random place, and the halves again, each band at its own places. */
function layout(box: Box, next: () => number, depth: number): Box[] {
  const along = [0, 1, 2].filter((d) => box.size[d]! > 1);
  if (depth === 0 || along.length === 0 || next() < 0.2) return [box];
  const d = along[Math.floor(next() * along.length)]!;
  const at = 1 + Math.floor(next() * (box.size[d]! - 1));
  const first = { start: [...box.start], size: box.size.map((s, k) => (k === d ? at : s)) };
  const second = {
    start: box.start.map((s, k) => (k === d ? s + at : s)),
    size: box.size.map((s, k) => (k === d ? s - at : s)),
  };
  return [...layout(first, next, depth - 1), ...layout(second, next, depth - 1)];
}

/** The row of `box`: every variable over the box, placed by `chunk_offset`. */
function row(box: Box): NdRecordBatch {
  const arrays = Object.entries(VARIABLES).map(([name, { dims, value }]) => {
    const sizes = dims.map((d) => box.size[d]!);
    const values = new Float64Array(sizes.reduce((n, s) => n * s, 1));
    values.forEach((_, i) => {
      const cell = [...box.start];
      let rest = i;
      for (let k = dims.length - 1; k >= 0; k--) {
        cell[dims[k]!] = box.start[dims[k]!]! + (rest % sizes[k]!);
        rest = Math.floor(rest / sizes[k]!);
      }
      values[i] = value(cell);
    });
    const shape = Object.fromEntries(dims.map((d, k) => [DIMS[d], sizes[k]!]));
    return [name, NdArray.from(values, { dims: shape, type: new Float64() })] as const;
  });
  return new NdRecordBatch(
    arrays,
    new Map([
      ["id", attr.utf8("irregular.nc")],
      ["chunk_offset", attr.uint32(Uint32Array.from(box.start))],
    ]),
  );
}

/** One dim of a random `isel`: whole (absent), one index (dropped), or `[start, stop)` (maybe empty). */
type Pick = undefined | number | [number, number];

function randomPick(size: number, next: () => number): Pick {
  const kind = next();
  if (kind < 0.25) return undefined;
  if (kind < 0.45) return Math.floor(next() * size);
  const a = Math.floor(next() * (size + 1));
  const b = Math.floor(next() * (size + 1));
  return [Math.min(a, b), Math.max(a, b)];
}

/** `name` over the picks, assembled from the source values: its kept dims and values in row-major order. */
function expected(name: string, picks: readonly Pick[], grid: readonly number[]): { dims: string[]; values: number[] } {
  const { dims, value } = VARIABLES[name]!;
  const cells = (d: number): number[] => {
    const pick = picks[d];
    if (pick === undefined) return Array.from({ length: grid[d]! }, (_, i) => i);
    if (typeof pick === "number") return [pick];
    return Array.from({ length: pick[1] - pick[0] }, (_, i) => pick[0] + i);
  };
  const values: number[] = [];
  const walk = (k: number, cell: number[]): void => {
    if (k === dims.length) {
      values.push(value(cell));
      return;
    }
    for (const i of cells(dims[k]!)) {
      const next = [...cell];
      next[dims[k]!] = i;
      walk(k + 1, next);
    }
  };
  walk(0, [0, 0, 0]);
  return { dims: dims.filter((d) => typeof picks[d] !== "number").map((d) => DIMS[d]!), values };
}

function tempTable(name: string): string {
  return join(mkdtempSync(join(tmpdir(), "lance-nd-irregular-")), name);
}

describe("dataset: rows cut at different places", () => {
  it("seeded layouts: isel windows read as the source assembles them, blocks cover each cell once, sel finds x", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const next = seededRandom(seed);
      const grid = [3 + Math.floor(next() * 4), 3 + Math.floor(next() * 4), 4 + Math.floor(next() * 5)];
      const boxes = layout({ start: [0, 0, 0], size: grid }, next, 5);
      const ds = await dataset(await write(tempTable(`seed-${seed}.lance`), boxes.map(row)));
      expect(ds.dims, `seed ${seed}`).toEqual(DIMS.map((name, d) => ({ name, size: grid[d]! })));
      for (let w = 0; w < 8; w++) {
        const picks = grid.map((size) => randomPick(size, next));
        const spec = Object.fromEntries(picks.flatMap((pick, d) => (pick === undefined ? [] : [[DIMS[d]!, pick]])));
        const where = `seed ${seed}, ${boxes.length} rows, isel ${JSON.stringify(spec)}`;
        const view = ds.isel(spec);
        const all = await view.read();
        const [a, b] = [Math.floor(next() * grid[2]!), Math.floor(next() * grid[2]!)];
        const bySel = await ds.sel({ x: [10 * Math.min(a, b), 10 * Math.max(a, b)] }).read(["v"]);
        const byIsel = await ds.isel({ x: [Math.min(a, b), Math.max(a, b) + 1] }).read(["v"]);
        expect(Array.from(bySel.get("v")!.values.toArray() as Float64Array), `${where}: sel x`).toEqual(
          Array.from(byIsel.get("v")!.values.toArray() as Float64Array),
        );
        for (const name of Object.keys(VARIABLES)) {
          const want = expected(name, picks, grid);
          for (const got of [all.get(name)!, (await view.read([name])).get(name)!]) {
            expect(got.dimNames, `${where}: ${name}`).toEqual(want.dims);
            expect(Array.from(got.values.toArray() as Float64Array), `${where}: ${name}`).toEqual(want.values);
          }
          const written = new Map<number, number>();
          const kept = picks.flatMap((pick, d) => (typeof pick === "number" ? [] : [d]));
          const selected = kept.map((d): [number, number] => (typeof picks[d] === "object" ? picks[d] : [0, grid[d]!]));
          for await (const { offset, batch } of view.blocks([name])) {
            const block = batch.get(name)!;
            const strides = block.shape.map((_, k) => block.shape.slice(k + 1).reduce((n, s) => n * s, 1));
            const sizes = want.dims.map((dim) => {
              const k = kept.indexOf(DIMS.indexOf(dim as (typeof DIMS)[number]));
              return selected[k]![1] - selected[k]![0];
            });
            const outStrides = sizes.map((_, k) => sizes.slice(k + 1).reduce((n, s) => n * s, 1));
            const values = block.values.toArray() as Float64Array;
            values.forEach((value, i) => {
              const at = block.dimNames.reduce((sum, dim, k) => {
                const local = Math.floor(i / strides[k]!) % block.shape[k]!;
                const d = kept.indexOf(DIMS.indexOf(dim as (typeof DIMS)[number]));
                return sum + (offset[d]! + local) * outStrides[k]!;
              }, 0);
              expect(written.has(at), `${where}: ${name} cell ${at} in two blocks`).toBe(false);
              written.set(at, value);
            });
          }
          const placed = Array.from({ length: want.values.length }, (_, i) => written.get(i));
          expect(placed, `${where}: ${name} from blocks`).toEqual(want.values);
        }
      }
    }
  });
});
