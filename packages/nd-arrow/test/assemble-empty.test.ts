/**
 * `assemble` of chunks empty along a dim (an unlimited dim with no
 * records, cut along the others): every array comes back, the arrays
 * without the empty dim whole, from the chunks that hold their pieces.
 */
import { Float32, Float64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { assemble } from "../src/assemble.js";
import { NdRecordBatch } from "../src/batch.js";
import { chunk } from "../src/chunk.js";
import { NdArray } from "../src/ndarray.js";

/** v(time 0, lat 3, lon 2), lat(lat), orography(lat, lon): xarray's dataset with no time steps yet. */
function noRecords(): NdRecordBatch {
  const v = NdArray.from([], { dims: { time: 0, lat: 3, lon: 2 }, type: new Float64() });
  const lat = NdArray.from(new Float64Array([1, 2, 3]), { dims: { lat: 3 } });
  const orography = NdArray.from(new Float32Array([1, 2, 3, 4, 5, 6]), {
    dims: { lat: 3, lon: 2 },
    type: new Float32(),
  });
  return new NdRecordBatch({ v, lat, orography }, { title: "t" });
}

describe("assemble of chunks empty along a dim", () => {
  for (const sizes of [{ lat: 1 }, { lat: 2, lon: 1 }, { time: 1 }] as Record<string, number>[]) {
    it(`chunks of ${JSON.stringify(sizes)} assemble into the batch, the arrays without time whole`, () => {
      const batch = assemble(chunk(noRecords(), sizes));
      expect(batch.globalAttr("title")).toBe("t");
      expect(batch.get("v")!.shape).toEqual([0, 3, 2]);
      expect(Array.from(batch.get("lat")!.values)).toEqual([1, 2, 3]);
      expect(Array.from(batch.get("orography")!.values)).toEqual([1, 2, 3, 4, 5, 6]);
    });
  }

  it("a window of some cells along the other dims takes the arrays without time from the chunks there", () => {
    const batch = assemble(chunk(noRecords(), { lat: 1 }), { window: { lat: [1, 3] } });
    expect(batch.get("v")!.shape).toEqual([0, 2, 2]);
    expect(Array.from(batch.get("lat")!.values)).toEqual([2, 3]);
    expect(Array.from(batch.get("orography")!.values)).toEqual([3, 4, 5, 6]);
  });
});
