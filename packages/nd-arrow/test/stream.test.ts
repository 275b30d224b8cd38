import { describe, expect, it } from "vitest";
import {
  NdArray,
  NdRecordBatch,
  decodeStream,
  encode,
  encodeSchema,
  encodeStream,
  isNdArrowError,
} from "../src/index.js";

const row = (i: number) => new NdRecordBatch({ a: NdArray.from(new Float64Array([i, i]), { dims: { x: 2 } }) }, { i });

async function* asyncRows(n: number): AsyncGenerator<NdRecordBatch> {
  for (let i = 0; i < n; i++) yield row(i);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("encodeStream / decodeStream", () => {
  it("encodeStream cuts record batches of rowsPerBatch rows, from sync or async iterables", async () => {
    const rbs = await collect(encodeStream(asyncRows(5), { rowsPerBatch: 2 }));
    expect(rbs.map((rb) => rb.numRows)).toEqual([2, 2, 1]);
    const sync = await collect(encodeStream([row(0), row(1)]));
    expect(sync.map((rb) => rb.numRows)).toEqual([2]);
  });

  it("decodeStream yields one NdRecordBatch per row, in order", async () => {
    const back = await collect(decodeStream(encodeStream(asyncRows(5), { rowsPerBatch: 2 })));
    expect(back.map((b) => b.globalAttr("i"))).toEqual([0, 1, 2, 3, 4]);
    expect(back.map((b) => b.get("a")!.toArray()[0])).toEqual([0, 1, 2, 3, 4]);
  });

  it("the schema option gives every record batch the same schema", async () => {
    const schema = encodeSchema([row(0), new NdRecordBatch({ b: NdArray.scalar("s") })]);
    const rbs = await collect(encodeStream(asyncRows(3), { rowsPerBatch: 2, schema }));
    expect(rbs.map((rb) => rb.schema.fields.map((f) => f.name))).toEqual([
      ["a", "b", "__global_attrs__"],
      ["a", "b", "__global_attrs__"],
    ]);
  });

  it("errors name the row counted from the start of the stream", async () => {
    const rows = [row(0), row(1), new NdRecordBatch({ a: NdArray.from(new Int32Array(2), { dims: { x: 2 } }) })];
    const err = await collect(encodeStream(rows, { rowsPerBatch: 2, schema: encodeSchema([row(0)]) })).catch(
      (e: unknown) => e,
    );
    expect(isNdArrowError(err, "SchemaMismatch")).toBe(true);
    expect(err).toMatchObject({ column: "a", row: 2 });
  });

  it("decode errors name the row counted from the start of the stream", async () => {
    const good = encode([row(0)]);
    const bad = encode([new NdRecordBatch({ a: NdArray.from(new Float64Array([1, 2]), { dims: { x: 2 } }) })]);
    // break row 0 of `bad`: dim size 3 for 2 values
    (bad.data.children[0]!.children[2]!.children[0]!.values as Uint32Array)[0] = 3;
    const err = await collect(decodeStream([good, good, bad])).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "InvalidShape", column: "a", row: 2 });
  });

  it("rowsPerBatch must be a positive integer", async () => {
    const err = await collect(encodeStream([row(0)], { rowsPerBatch: 0 })).catch((e: unknown) => e);
    expect(isNdArrowError(err, "InvalidArgument")).toBe(true);
  });
});
