/**
 * A dataset whose rows do not all hold a variable (rows written with
 * different variable sets under one `id`), on a real table: `read` of cells
 * that rows without the variable hold is `InvalidInput` naming the variable
 * and those rows, cells of the rows that hold it read as written, `blocks`
 * gives the holding rows only; `zarrStore` answers a chunk that rows with
 * and without the variable share with the holders' cells and the fill value
 * elsewhere, read through zarrita.
 */
import { Float64 } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { failure } from "@lance-nd/test-helpers";
import * as zarr from "zarrita";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataset, isLanceNdError, write, zarrStore } from "../../src/index.js";
import type { NdTable } from "../../src/index.js";

const NX = 3;
/** The rows along time: start, size, and whether they hold w(time, x) and q(time). */
const ROWS = [
  { start: 0, size: 2, holds: true },
  { start: 2, size: 2, holds: false },
  { start: 4, size: 1, holds: true },
  { start: 5, size: 1, holds: false },
];

const v = (t: number, x: number) => 100 * t + x;
const w = (t: number, x: number) => 0.5 + 10 * t + x;
const q = (t: number) => 7 * t + 0.25;

/** The row of ROWS[k]: v(time, x) always, w (`_FillValue` -1) and q (no `_FillValue`) when it holds them. */
function row(k: number): NdRecordBatch {
  const { start, size, holds } = ROWS[k]!;
  const grid = (f: (t: number, x: number) => number) =>
    Float64Array.from({ length: size * NX }, (_, i) => f(start + Math.floor(i / NX), i % NX));
  const arrays: [string, NdArray][] = [
    ["v", NdArray.from(grid(v), { dims: { time: size, x: NX }, type: new Float64() })],
  ];
  if (holds) {
    arrays.push(["w", NdArray.from(grid(w), { dims: { time: size, x: NX }, attrs: { _FillValue: -1 } })]);
    arrays.push([
      "q",
      NdArray.from(
        Float64Array.from({ length: size }, (_, i) => q(start + i)),
        { dims: { time: size } },
      ),
    ]);
  }
  return new NdRecordBatch(
    arrays,
    new Map([
      ["id", attr.utf8("partial.nc")],
      ["chunk_offset", attr.uint32(Uint32Array.from([start, 0]))],
    ]),
  );
}

async function table(): Promise<NdTable> {
  const dir = mkdtempSync(join(tmpdir(), "lance-nd-partial-"));
  return write(
    join(dir, "partial.lance"),
    ROWS.map((_, k) => row(k)),
  );
}

const values = (array: NdArray | undefined) => Array.from(array!.values.toArray() as Float64Array);

describe("dataset rows without a variable", () => {
  it("read of cells rows without it hold is InvalidInput naming the variable and those rows; the holders' cells read", async () => {
    const ds = await dataset(await table());
    for (const [view, names, offsets] of [
      [ds, ["w"], ["[2, 0]", "[5, 0]"]],
      [ds, undefined, ["[2, 0]", "[5, 0]"]],
      [ds.isel({ time: [4, 6] }), ["q"], ["[5, 0]"]],
      [ds.isel({ time: 3 }), ["v", "w"], ["[2, 0]"]],
    ] as const) {
      const err = await failure(view.read(names));
      expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
      const message = (err as Error).message;
      expect(message).toMatch(/variables? "[wq]"/);
      expect(message).toContain('id "partial.nc"');
      for (const offset of offsets) expect(message).toContain(`at offset ${offset}`);
      expect(message).not.toContain("at offset [0, 0]");
    }
    const first = await ds.isel({ time: [0, 2] }).read(["w", "q", "v"]);
    expect(values(first.get("w"))).toEqual([0, 1].flatMap((t) => [0, 1, 2].map((x) => w(t, x))));
    expect(values(first.get("q"))).toEqual([q(0), q(1)]);
    const at4 = await ds.isel({ time: 4, x: [1, 3] }).read(["w"]);
    expect(at4.get("w")!.dimNames).toEqual(["x"]);
    expect(values(at4.get("w"))).toEqual([w(4, 1), w(4, 2)]);
    expect(values((await ds.read(["v"])).get("v"))).toEqual(
      Array.from({ length: 6 * NX }, (_, i) => v(Math.floor(i / NX), i % NX)),
    );
  });

  it("blocks of the variable come from the rows that hold it only", async () => {
    const ds = await dataset(await table());
    const offsets: number[][] = [];
    for await (const { offset, batch } of ds.blocks(["w", "q"])) {
      offsets.push(offset);
      expect(values(batch.get("q"))).toEqual(
        Array.from({ length: batch.get("q")!.shape[0]! }, (_, i) => q(offset[0]! + i)),
      );
    }
    expect(offsets).toEqual([
      [0, 0],
      [4, 0],
    ]);
  });
});

describe("zarrStore rows without a variable", () => {
  it("a chunk rows with and without the variable share holds the holders' cells and the fill value elsewhere", async () => {
    const store = await zarrStore(await table());
    const meta = JSON.parse(new TextDecoder().decode(await store.get("/partial.nc/w/.zarray"))) as {
      chunks: number[];
      fill_value: number;
    };
    // Rows of sizes 2, 2, 1, 1 along time: chunks of 2, so the chunk at time 4 meets a row with w and one without.
    expect(meta.chunks).toEqual([2, 3]);
    expect(meta.fill_value).toBe(-1);
    expect(await store.get("/partial.nc/w/1.0")).toBeUndefined();
    expect(await store.get("/partial.nc/w/2.0")).toBeDefined();
    const group = zarr.root(store).resolve("partial.nc");
    const wRead = await zarr.get(await zarr.open(group.resolve("w"), { kind: "array" }));
    expect(Array.from(wRead.data as Float64Array)).toEqual(
      Array.from({ length: 6 * NX }, (_, i) => {
        const [t, x] = [Math.floor(i / NX), i % NX];
        return t < 2 || t === 4 ? w(t, x) : -1;
      }),
    );
    const qArray = await zarr.open(group.resolve("q"), { kind: "array" });
    const qFill = Number(qArray.fillValue);
    const qRead = await zarr.get(qArray);
    expect(Array.from(qRead.data as Float64Array)).toEqual([q(0), q(1), qFill, qFill, q(4), qFill]);
  });
});
