import { describe, expect, it } from "vitest";
import { Float16, Int64, Utf8 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { jsonReplacer } from "../../src/io.js";
import { attrsJson, writeRowJson } from "../../src/output/row-json.js";
import { SinkWriter } from "../../src/output/sink-writer.js";

/** What `scan --json` printed before it streamed: the row built as one object, then JSON.stringify. */
function wholeRow(batch: NdRecordBatch): unknown {
  return {
    globalAttrs: attrsJson(batch.globalAttrs),
    arrays: Object.fromEntries(
      batch.arrays().map(([name, a]) => {
        const values = a.toArray();
        return [
          name,
          {
            type: String(a.type),
            dims: a.dims.map(({ name: n, size }) => ({ name: n, size })),
            attrs: attrsJson(a.attrs),
            values: Array.isArray(values) ? values : Array.from(values as ArrayLike<unknown>),
          },
        ];
      }),
    ),
  };
}

async function streamed(
  batch: NdRecordBatch,
  pretty: boolean,
  level: number,
  chunkChars = 7,
): Promise<{ text: string; writes: number; largest: number }> {
  let text = "";
  let writes = 0;
  let largest = 0;
  const write = (chunk: string | Uint8Array): boolean => {
    text += String(chunk);
    writes++;
    largest = Math.max(largest, chunk.length);
    return true;
  };
  const out = new SinkWriter({ write }, chunkChars);
  await writeRowJson(out, batch, { pretty, level });
  await out.flush();
  return { text, writes, largest };
}

const rows = [
  new NdRecordBatch(
    {
      sst: NdArray.from(new Float32Array([1.5, Number.NaN, -Infinity, 0.1, -0]), {
        dims: { x: 5 },
        attrs: { units: "K", scale: [1, 2] },
      }),
      n: NdArray.from([2n ** 60n, null, -3n], { dims: { t: 3 }, type: new Int64() }),
      name: NdArray.from(['a"b', null, "é\n"], { dims: { s: 3 }, type: new Utf8() }),
      half: NdArray.from([1, 0.5], { dims: { h: 2 }, type: new Float16() }),
      empty: NdArray.from(new Float64Array(0), { dims: { e: 0 } }),
      scalar: NdArray.from(new Int32Array([7]), { dims: {} }),
    },
    { id: "row \u0001values:0", when: 3 },
  ),
  new NdRecordBatch({}, { id: "no arrays" }),
  new NdRecordBatch({
    big: NdArray.from(
      Float64Array.from({ length: 40_000 }, (_, i) => i / 3),
      { dims: { y: 200, x: 200 } },
    ),
  }),
];

describe("writeRowJson", () => {
  it.each(rows.map((r, i) => [i, r] as const))(
    "row %i: the same text as JSON.stringify of the whole row, pretty at any level and on one line",
    async (_, batch) => {
      expect((await streamed(batch, false, 0)).text).toBe(JSON.stringify(wholeRow(batch), jsonReplacer));
      expect((await streamed(batch, true, 0)).text).toBe(JSON.stringify(wholeRow(batch), jsonReplacer, 2));
      const inArray = `[\n  ${(await streamed(batch, true, 1)).text}\n]`;
      expect(inArray).toBe(JSON.stringify([wholeRow(batch)], jsonReplacer, 2));
    },
  );

  it("writes a large row in chunks of at most one slice of values, never as one string", async () => {
    const { text, writes, largest } = await streamed(rows[2]!, false, 0, 1 << 12);
    expect(writes).toBeGreaterThanOrEqual(3);
    expect(largest).toBeLessThan(text.length / 2);
    expect(JSON.parse(text).arrays.big.values).toHaveLength(40_000);
  });
});
