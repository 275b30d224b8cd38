import { describe, expect, it } from "vitest";
import {
  Field,
  Float32,
  Int32,
  RecordBatch,
  Schema,
  Struct,
  makeData,
  tableFromIPC,
  tableToIPC,
  Table,
  vectorFromArray,
} from "apache-arrow";
import { recordBatchOf } from "../src/internal.js";

const schema = new Schema(
  [new Field("a", new Float32(), true, new Map([["units", "K"]])), new Field("b", new Int32(), false)],
  new Map([["k", "v"]]),
);
const children = [
  vectorFromArray([1.5, null, 3], new Float32()).data[0]!,
  vectorFromArray([1, 2, 3], new Int32()).data[0]!,
];

describe("recordBatchOf", () => {
  it("makes the batch apache-arrow's constructor makes, readable and serialisable like it", () => {
    const data = makeData({ type: new Struct(schema.fields), length: 3, nullCount: 0, children });
    const fast = recordBatchOf(schema, data);
    const slow = new RecordBatch(schema, data);
    expect(fast).toBeInstanceOf(RecordBatch);
    expect(fast.numRows).toBe(3);
    expect(fast.schema.fields.map((f) => [f.name, String(f.type), f.nullable, [...f.metadata]])).toEqual(
      slow.schema.fields.map((f) => [f.name, String(f.type), f.nullable, [...f.metadata]]),
    );
    expect([...fast.schema.metadata]).toEqual([...slow.schema.metadata]);
    expect(fast.toArray().map((r) => r.toJSON())).toEqual(slow.toArray().map((r) => r.toJSON()));
    const back = tableFromIPC(tableToIPC(new Table([fast])));
    expect(back.getChild("a")?.toArray()).toEqual(new Table([slow]).getChild("a")?.toArray());
    expect(back.schema.fields[0]!.metadata.get("units")).toBe("K");
  });

  it("takes the RecordBatch class of another apache-arrow copy, so instanceof checks of that copy pass", () => {
    class Other extends RecordBatch {}
    const data = makeData({ type: new Struct(schema.fields), length: 3, nullCount: 0, children });
    expect(recordBatchOf(schema, data, Other)).toBeInstanceOf(Other);
  });

  it("pads a short child with nulls through the constructor, as apache-arrow does", () => {
    const short = vectorFromArray([7], new Int32()).data[0]!;
    const data = makeData({
      type: new Struct(schema.fields),
      length: 3,
      nullCount: 0,
      children: [children[0]!, short],
    });
    const rb = recordBatchOf(schema, data);
    expect(rb.getChild("b")?.toArray().length).toBe(3);
    expect(rb.getChild("b")?.get(2)).toBeNull();
  });
});
