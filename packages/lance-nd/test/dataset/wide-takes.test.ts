/**
 * The SDK takes a read of a wide table makes (SDK-NOTES.md, section 29):
 * rows of variable groups on dims of their own, as an import writes them
 * (CLI README, "Rows of an import"), each group in its own rows, so each
 * row needs other variables. Each take costs the table's width, so the
 * takes of the groups are merged into a few; the values equal those written.
 * A real table written with lance-nd's `write`.
 */
import { Float32, Int16 } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { recordReads } from "./fixture.js";

const dir = tempDir("dataset-wide-takes");

afterEach(() => vi.restoreAllMocks());

const GROUPS = 40;
const PER_GROUP = 8;

/** Group `g`'s dim: 6 cells, cut into rows of 3 in every third group. */
const cellsOf = (g: number) => 6 + (g % 5);
const rowCells = (g: number) => (g % 3 === 0 ? 3 : cellsOf(g));

/** Variable `k` of group `g` over its dim `n{g}` (Float32, every fourth one Int16), its values distinct. */
function variable(g: number, k: number, start: number, size: number): NdArray {
  const values = Array.from({ length: size }, (_, i) => 1000 * g + 10 * k + start + i);
  return k % 4 === 0
    ? NdArray.from(Int16Array.from(values), { dims: { [`n${g}`]: size }, type: new Int16() })
    : NdArray.from(Float32Array.from(values), { dims: { [`n${g}`]: size }, type: new Float32(), attrs: { k } });
}

/** The rows of every group: each holds its group's variables only, placed on the group's dim by `chunk_offset`. */
function groupRows(): NdRecordBatch[] {
  return Array.from({ length: GROUPS }, (_, g) => g).flatMap((g) =>
    Array.from({ length: Math.ceil(cellsOf(g) / rowCells(g)) }, (_, r) => {
      const start = r * rowCells(g);
      const size = Math.min(rowCells(g), cellsOf(g) - start);
      const arrays = Array.from({ length: PER_GROUP }, (_, k) => [`g${g}_${k}`, variable(g, k, start, size)] as const);
      return new NdRecordBatch(
        arrays,
        new Map([
          ["id", attr.utf8("groups.nc")],
          ["chunk_offset", attr.uint32(Uint32Array.from([start]))],
        ]),
      );
    }),
  );
}

describe("dataset read of a wide table: SDK takes", () => {
  it(`${GROUPS * PER_GROUP} variables in groups of rows of their own: a few takes, the values written`, async () => {
    const rows = groupRows();
    const table = await write(`${dir}/groups.lance`, rows, { stats: true });
    const view = await table.checkout(await table.version());
    const ds = await dataset(view);
    const reads = recordReads(view);
    const read = await ds.read();
    expect(reads.takes.length).toBeLessThanOrEqual(4);
    expect(reads.takes.reduce((sum, take) => sum + take.rows, 0)).toBe(rows.length);
    for (let g = 0; g < GROUPS; g++)
      for (let k = 0; k < PER_GROUP; k++) {
        const array = read.get(`g${g}_${k}`)!;
        expect([array.dimNames, Array.from(array.values as Iterable<number>)]).toEqual([
          [`n${g}`],
          Array.from(variable(g, k, 0, cellsOf(g)).values as Iterable<number>),
        ]);
        expect(array.attrs.has("k")).toBe(k % 4 !== 0);
      }
  });
});
