import { Float32 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { isLanceNdError } from "../../src/errors.js";
import { tempDir } from "../helpers/make-table.js";
import { sstBatch, writeChunked } from "./fixture.js";

const dir = tempDir("dataset-values");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;

const message = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    if (isLanceNdError(err)) return `${err.code}: ${err.message}`;
    return `untyped ${(err as Error).name}: ${(err as Error).message}`;
  }
  return "no error";
};

/** v(x) = x over a 64-bit integer coordinate `x` of values `base + steps[i]`, chunked by 3. */
async function int64Dataset(base: bigint, steps: readonly bigint[], signed: boolean) {
  const coords = steps.map((s) => base + s);
  const values = signed ? BigInt64Array.from(coords) : BigUint64Array.from(coords);
  const batch = new NdRecordBatch(
    {
      v: NdArray.from(
        Float32Array.from(steps, (_, i) => i),
        { dims: { x: steps.length }, type: new Float32() },
      ),
      x: NdArray.from(values, { dims: { x: steps.length } }),
    },
    { id: "ids.nc" },
  );
  return dataset(await writeChunked(uri(), batch, { x: 3 }));
}

describe("dataset: sel on 64-bit integer coordinates is exact", () => {
  const STEPS = [0n, 1n, 2n, 4n, 5n, 8n, 9n] as const;
  // Above 2^53 neighbouring integers round to the same number: each must still select its own cell.
  for (const [name, base, signed] of [
    ["Int64 above 2^53", 2n ** 53n, true],
    ["Int64 near its minimum", -(2n ** 63n), true],
    ["UInt64 near 2^64", 2n ** 64n - 16n, false],
  ] as const) {
    it(`${name}: values, ranges and nearest pick the exact cells`, async () => {
      const ds = await int64Dataset(base, STEPS, signed);
      for (const [k, step] of STEPS.entries()) {
        expect(Array.from((await ds.sel({ x: base + step }).read(["v"])).get("v")!.values)).toEqual([k]);
      }
      const range = await ds.sel({ x: [base + 1n, base + 5n] }).read(["v"]);
      expect(Array.from(range.get("v")!.values)).toEqual([1, 2, 3, 4]);
      // base + 3 sits between base + 2 and base + 4: the larger wins the tie (pandas); base + 7 is nearer to 8.
      expect(Array.from((await ds.sel({ x: base + 3n }, { method: "nearest" }).read(["v"])).get("v")!.values)).toEqual([
        3,
      ]);
      // Text is read exactly on a 64-bit coordinate (as the command line passes it).
      expect(Array.from((await ds.sel({ x: String(base + 9n) }).read(["v"])).get("v")!.values)).toEqual([6]);
      expect(Array.from((await ds.sel({ x: base + 7n }, { method: "nearest" }).read(["v"])).get("v")!.values)).toEqual([
        5,
      ]);
      expect(await message(ds.sel({ x: base + 3n }).read(["v"]))).toMatch(
        new RegExp(`InvalidInput: .*no "x" value equals ${base + 3n}n.*values from ${base} to ${base + 9n}`),
      );
    });
  }

  it("isel takes bigint indices exactly, and names a bigint index no dim can reach", async () => {
    const ds = await dataset(await writeChunked(uri(), sstBatch(), { time: 4 }));
    const byBigint = await ds.isel({ time: 3n, lat: [2n, 5n] }).read(["sst"]);
    const byNumber = await ds.isel({ time: 3, lat: [2, 5] }).read(["sst"]);
    expect(Array.from(byBigint.get("sst")!.values)).toEqual(Array.from(byNumber.get("sst")!.values));
    expect(await message(() => ds.isel({ time: 2n ** 60n }))).toMatch(
      /^InvalidInput: .*isel: index 1152921504606846976n along "time" is past any dim's size$/,
    );
    expect(await message(() => ds.isel({ time: [1n, 2n, 3n] }))).toMatch(
      /^InvalidInput: .*isel: "time" is \[1n, 2n, 3n\], expected an integer or \[start, stop\) integers$/,
    );
  });
});

describe("dataset: empty selections", () => {
  it("an empty isel or sel range along any dim reads zero-size arrays; variables without that dim read whole", async () => {
    const batch = sstBatch();
    const ds = await dataset(await writeChunked(uri(), batch, { time: 4, lon: 4 }));
    for (const view of [ds.isel({ lon: [3, 3] }), ds.sel({ lon: [10, 20] })]) {
      const got = await view.read();
      expect(got.get("sst")!.dims.map((d) => [d.name, d.size])).toEqual([
        ["time", 12],
        ["lat", 10],
        ["lon", 0],
      ]);
      expect(got.get("lon")!.size).toBe(0);
      expect(Array.from(got.get("lat")!.values)).toEqual(Array.from(batch.get("lat")!.values));
      expect(Array.from(got.get("time")!.values)).toEqual(Array.from(batch.get("time")!.values));
    }
    const lat = await ds.sel({ lat: [1, 2] }).read(["sst", "lon"]);
    expect(lat.get("sst")!.shape).toEqual([12, 0, 8]);
    expect(Array.from(lat.get("lon")!.values)).toEqual(Array.from(batch.get("lon")!.values));
  });
});
