import { Float32, Int32, type List, Type } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attr } from "../src/attrs.js";
import { NdRecordBatch } from "../src/batch.js";
import { assemble } from "../src/assemble.js";
import { CHUNK_OFFSET, chunk } from "../src/chunk.js";
import { NdArray } from "../src/ndarray.js";
import { slice } from "../src/window.js";
import { batchOnGridArb, gridArb, plainBatch } from "./grid-arbitraries.js";
import { errorOf } from "./thrown.js";

/** time(3) x lat(4) temperature, a lat coordinate, a scalar; global attribute id. */
function sample(): NdRecordBatch {
  const temp = NdArray.from(
    Array.from({ length: 12 }, (_, i) => (i === 5 ? null : i)),
    { dims: { time: 3, lat: 4 }, type: new Float32(), attrs: { units: "K" } },
  );
  const lat = NdArray.from(new Float32Array([-60, -20, 20, 60]), { dims: { lat: 4 } });
  const scale = NdArray.scalar(2, { type: new Int32() });
  return new NdRecordBatch({ temp, lat, scale }, { id: "a" });
}

describe("chunk", () => {
  it("cuts complete batches along the named dims; the last chunk may be smaller", () => {
    const chunks = chunk(sample(), { time: 2 });
    expect(chunks.map((c) => c.get("temp")!.shape)).toEqual([
      [2, 4],
      [1, 4],
    ]);
    expect(Array.from(chunks[1]!.get("temp")!.values)).toEqual([8, 9, 10, 11]);
  });

  it("chunks come in row-major order over chunk indices, with chunk_offset per grid dim", () => {
    const chunks = chunk(sample(), { time: 2, lat: 3 });
    expect(chunks.map((c) => c.globalAttr(CHUNK_OFFSET))).toEqual([
      [0, 0],
      [0, 3],
      [2, 0],
      [2, 3],
    ]);
    expect(Array.from(chunks[1]!.get("temp")!.values)).toEqual([3, 7]);
    expect(Array.from(chunks[1]!.get("lat")!.values)).toEqual([60]);
  });

  it("chunk_offset is a List<UInt32> next to the batch's global attributes", () => {
    const [first] = chunk(sample(), { lat: 2 });
    const offset = first!.globalAttrs.get(CHUNK_OFFSET)!;
    expect(offset.type.typeId).toBe(Type.List);
    expect(String((offset.type as List).children[0]!.type)).toBe("Uint32");
    expect(first!.globalAttr("id")).toBe("a");
  });

  it("arrays that lack a chunked dim repeat in each chunk, unchanged", () => {
    const batch = sample();
    const chunks = chunk(batch, { time: 1 });
    expect(chunks).toHaveLength(3);
    for (const c of chunks) {
      expect(c.get("lat")).toBe(batch.get("lat"));
      expect(c.get("scale")).toBe(batch.get("scale"));
    }
  });

  it("nulls and attributes travel with the pieces", () => {
    const [, second] = chunk(sample(), { time: 1 });
    const temp = second!.get("temp")!;
    expect(Array.from(temp.values)).toEqual([4, null, 6, 7]);
    expect(temp.attr("units")).toBe("K");
  });

  it("an unknown dim or a size < 1 is InvalidArgument", () => {
    expect(errorOf(() => chunk(sample(), { depth: 2 }))?.code).toBe("InvalidArgument");
    expect(errorOf(() => chunk(sample(), { time: 0 }))?.code).toBe("InvalidArgument");
    expect(errorOf(() => chunk(sample(), { time: 1.5 }))?.code).toBe("InvalidArgument");
  });

  it("a batch that already has chunk_offset is InvalidArgument", () => {
    const [first] = chunk(sample(), { time: 1 });
    expect(errorOf(() => chunk(first!, { lat: 2 }))?.code).toBe("InvalidArgument");
  });
});

describe("assemble", () => {
  it("rebuilds the original batch, without chunk_offset", () => {
    const batch = sample();
    const back = assemble(chunk(batch, { time: 2, lat: 3 }));
    expect(plainBatch(back)).toEqual(plainBatch(batch));
    expect(back.globalAttrs.has(CHUNK_OFFSET)).toBe(false);
  });

  it("chunks may come in any order", () => {
    const batch = sample();
    const chunks = chunk(batch, { time: 1, lat: 2 }).reverse();
    expect(plainBatch(assemble(chunks))).toEqual(plainBatch(batch));
  });

  it("no chunks is ChunkMismatch", () => {
    expect(errorOf(() => assemble([]))?.code).toBe("ChunkMismatch");
  });

  it("a gap is ChunkMismatch naming an uncovered cell", () => {
    const chunks = chunk(sample(), { time: 1 });
    const err = errorOf(() => assemble([chunks[0]!, chunks[2]!]));
    expect(err?.code).toBe("ChunkMismatch");
    expect(err?.message).toMatch(/no chunk covers cell \[1, 0\]/);
  });

  it("an overlap is ChunkMismatch naming both chunks", () => {
    const chunks = chunk(sample(), { time: 2 });
    const err = errorOf(() => assemble([chunks[0]!, chunks[1]!, chunks[0]!]));
    expect(err?.code).toBe("ChunkMismatch");
    expect(err?.message).toMatch(/chunk 2 .* overlaps chunk 0/);
  });

  it("a chunk without chunk_offset is ChunkMismatch naming the chunk", () => {
    const chunks = chunk(sample(), { time: 2 });
    const bare = new NdRecordBatch(chunks[1]!.arrays(), { id: "a" });
    const err = errorOf(() => assemble([chunks[0]!, bare]));
    expect(err?.code).toBe("ChunkMismatch");
    expect(err?.message).toMatch(/chunk 1 has no "chunk_offset"/);
  });

  it("a chunk_offset of the wrong length is ChunkMismatch", () => {
    const chunks = chunk(sample(), { time: 2 });
    const bad = chunks[1]!.withGlobalAttrs({ id: "a", chunk_offset: attr.uint32([2]) });
    expect(errorOf(() => assemble([chunks[0]!, bad]))?.code).toBe("ChunkMismatch");
  });

  it("repeated arrays that disagree are ChunkMismatch naming the chunk and array", () => {
    const chunks = chunk(sample(), { time: 2 });
    const other = chunks[1]!.withArrays({ lat: NdArray.from(new Float32Array([0, 0, 0, 0]), { dims: { lat: 4 } }) });
    const err = errorOf(() => assemble([chunks[0]!, other]));
    expect(err?.code).toBe("ChunkMismatch");
    expect(err?.message).toMatch(/column "lat".*chunk 1/);
  });

  it("chunks cut at different places in each lat band: arrays lacking a dim come from the chunks at the box's first cell", () => {
    const batch = sample().withArrays({ time: NdArray.from(new Int32Array([10, 20, 30]), { dims: { time: 3 } }) });
    /** `batch` over `[t0, t1) x [y0, y1)`, every array cut on the dims it has. */
    const cut = ([t0, t1, y0, y1]: readonly number[], offset: boolean) => {
      const box = { time: [t0!, t1!], lat: [y0!, y1!] } as const;
      const arrays = batch.arrays().map(([name, a]) => {
        const own = Object.fromEntries(Object.entries(box).filter(([dim]) => a.dimNames.includes(dim)));
        return [name, slice(a, own)] as const;
      });
      const start = attr.uint32(Uint32Array.from([t0!, y0!]));
      return new NdRecordBatch(
        arrays,
        offset ? new Map([...batch.globalAttrs, [CHUNK_OFFSET, start]]) : batch.globalAttrs,
      );
    };
    const chunks = [
      [0, 1, 0, 2],
      [1, 3, 0, 2],
      [0, 2, 2, 4],
      [2, 3, 2, 4],
    ].map((box) => cut(box, true));
    expect(plainBatch(assemble(chunks))).toEqual(plainBatch(batch));
    for (const box of [
      [1, 3, 1, 3],
      [2, 3, 0, 4],
      [3, 3, 1, 4],
    ]) {
      const window = { time: [box[0]!, box[1]!], lat: [box[2]!, box[3]!] } as const;
      const got = assemble(chunks.toReversed(), { window });
      expect(plainBatch(got.withGlobalAttrs(batch.globalAttrs)), String(box)).toEqual(plainBatch(cut(box, false)));
    }
  });

  it("disagreeing global attributes, types and array attributes are ChunkMismatch", () => {
    const chunks = chunk(sample(), { time: 2 });
    const offset = chunks[1]!.globalAttrs.get(CHUNK_OFFSET)!;
    const attrs = chunks[1]!.withGlobalAttrs({ id: "b", chunk_offset: offset });
    expect(errorOf(() => assemble([chunks[0]!, attrs]))?.message).toMatch(/chunk 1: global attribute "id"/);
    const temp = chunks[1]!.get("temp")!;
    const retyped = chunks[1]!.withArrays({ temp: NdArray.from(new Int32Array(4), { dims: temp.dims }) });
    expect(errorOf(() => assemble([chunks[0]!, retyped]))?.code).toBe("ChunkMismatch");
    const reattr = chunks[1]!.withArrays({ temp: temp.withAttrs({ units: "C" }) });
    expect(errorOf(() => assemble([chunks[0]!, reattr]))?.message).toMatch(/attribute "units"/);
  });

  it("a chunk with an extra or a missing array is ChunkMismatch", () => {
    const chunks = chunk(sample(), { time: 2 });
    const extra = chunks[1]!.withArrays({ more: NdArray.scalar(1) });
    expect(errorOf(() => assemble([chunks[0]!, extra]))?.code).toBe("ChunkMismatch");
    const fewer = chunks[1]!.select(["temp", "lat"]);
    expect(errorOf(() => assemble([chunks[0]!, fewer]))?.code).toBe("ChunkMismatch");
  });

  it("property: chunk then assemble gives back the batch (random grids, chunk sizes, types, nulls)", () => {
    const arb = gridArb(5).chain((grid) =>
      fc.tuple(
        batchOnGridArb(grid),
        fc.record(Object.fromEntries(grid.map((d) => [d.name, fc.integer({ min: 1, max: d.size + 1 })])), {
          requiredKeys: [],
        }),
      ),
    );
    const prop = fc.property(arb, ([batch, sizes]) => {
      const chunks = chunk(batch, sizes as Record<string, number>);
      const grid = batch.grid();
      const expected = grid.reduce(
        (n, d) => n * Math.ceil(d.size / ((sizes as Record<string, number>)[d.name] ?? d.size)),
        1,
      );
      expect(chunks).toHaveLength(expected);
      expect(plainBatch(assemble(chunks))).toEqual(plainBatch(batch));
    });
    fc.assert(prop, { seed: 42, numRuns: 100 });
  });
});
