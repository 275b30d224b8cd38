// Fuzz of nd-arrow's `decode` over corrupted Arrow input: whatever is broken
// in the column data (lengths, offsets, dim sizes, validity, children, IPC
// bytes), decode either returns nd record batches or throws a typed
// NdArrowError. It never crashes with another error and never hangs.
import {
  DataType,
  Field,
  MessageHeader,
  MessageReader,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  tableFromIPC,
  tableToIPC,
  type Data,
} from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr, decode, encode, isNdArrowError } from "@lance-nd/nd-arrow";
import { count } from "../helpers/counters.js";

const RUNS = Number(process.env.RELIABILITY_FUZZ_RUNS ?? "8") * 50;

/** A valid encoded record batch: several rows, different grids, types, attributes and absent arrays. */
function validBatch(): RecordBatch {
  const rows = [
    new NdRecordBatch(
      {
        sst: NdArray.from(new Float32Array([1, 2, 3, 4, 5, 6]), {
          dims: { y: 2, x: 3 },
          attrs: { units: "K", range: attr.float32([0, 9]) },
        }),
        name: NdArray.from(["a", "bc", null], { dims: { x: 3 } }),
      },
      { id: "r0", n: 1 },
    ),
    new NdRecordBatch(
      {
        sst: NdArray.from(new Float32Array([7]), { dims: {} }),
        count: NdArray.from(new BigInt64Array([1n, 2n]), { dims: { t: 2 } }),
      },
      { id: "r1" },
    ),
    new NdRecordBatch({ name: NdArray.from([], { dims: { x: 0 }, type: new Utf8() }) }, { id: "r2", n: 3 }),
  ];
  return encode(rows);
}

/** Every Data node of a tree, depth first, with its path of child indexes. */
function nodes(data: Data, path: number[] = []): { data: Data; path: number[] }[] {
  return [{ data, path }, ...data.children.flatMap((child, i) => nodes(child, [...path, i]))];
}

/** `root` with the node at `path` replaced by `next` (types of the parents follow the children). */
function replaceAt(root: Data, path: number[], next: Data): Data {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  const children = root.children.map((child, i) => (i === head ? replaceAt(child, rest, next) : child));
  let type: DataType = root.type;
  if (children.length !== root.children.length || children[head!]!.type !== root.children[head!]!.type) {
    type = rebuildType(root.type, children);
  }
  return root.clone(type, root.offset, root.length, root.nullCount, undefined, children);
}

function rebuildType(type: DataType, children: Data[]): DataType {
  const fields = (type.children ?? []) as Field[];
  if (fields.length === children.length && DataType.isStruct(type)) {
    return new Struct(fields.map((f, i) => new Field(f.name, children[i]!.type, f.nullable, f.metadata)));
  }
  return type;
}

type Corruption = (data: Data, r: (max: number) => number) => Data;

const corruptions: Record<string, Corruption> = {
  length: (d, r) => d.clone(d.type, d.offset, r(d.length + 4), -1, undefined, d.children),
  offset: (d, r) => d.clone(d.type, r(3), d.length, -1, undefined, d.children),
  valueOffsets: (d, r) => {
    if (d.valueOffsets === undefined || d.valueOffsets.length === 0) return d;
    const offsets = d.valueOffsets.slice() as Int32Array;
    offsets[r(offsets.length)] = r(40) - 5;
    return d.clone(
      d.type,
      d.offset,
      d.length,
      d.nullCount,
      [offsets, d.values, d.nullBitmap, d.typeIds] as never,
      d.children,
    );
  },
  values: (d, r) => {
    if (d.values === undefined || d.values.byteLength === 0) return d;
    const bytes = new Uint8Array(d.values.buffer.slice(d.values.byteOffset, d.values.byteOffset + d.values.byteLength));
    bytes[r(bytes.length)] = r(256);
    const values = new (d.values.constructor as new (b: ArrayBuffer) => typeof d.values)(bytes.buffer);
    return d.clone(
      d.type,
      d.offset,
      d.length,
      d.nullCount,
      [d.valueOffsets, values, d.nullBitmap, d.typeIds] as never,
      d.children,
    );
  },
  validity: (d, r) => {
    const bitmap = new Uint8Array(Math.max(1, Math.ceil((d.offset + d.length) / 8)));
    if (d.nullBitmap !== undefined && d.nullBitmap.length > 0) bitmap.set(d.nullBitmap.subarray(0, bitmap.length));
    else bitmap.fill(255);
    bitmap[r(bitmap.length)]! ^= 1 << r(8);
    return d.clone(d.type, d.offset, d.length, -1, [d.valueOffsets, d.values, bitmap, d.typeIds] as never, d.children);
  },
  dropChild: (d, r) => {
    if (d.children.length === 0 || !DataType.isStruct(d.type)) return d;
    const drop = r(d.children.length);
    const children = d.children.filter((_, i) => i !== drop);
    const fields = (d.type.children as Field[]).filter((_, i) => i !== drop);
    return d.clone(new Struct(fields), d.offset, d.length, d.nullCount, undefined, children);
  },
  swapChildren: (d, r) => {
    if (d.children.length < 2) return d;
    const i = r(d.children.length);
    const j = (i + 1 + r(d.children.length - 1)) % d.children.length;
    const children = d.children.slice();
    [children[i], children[j]] = [children[j]!, children[i]!];
    return d.clone(rebuildType(d.type, children), d.offset, d.length, d.nullCount, undefined, children);
  },
};

/** The bytes of every buffer of `d` and its children. */
function bufferBytes(d: Data): number {
  const own = [d.values, d.valueOffsets, d.nullBitmap, d.typeIds].reduce((sum, b) => sum + (b?.byteLength ?? 0), 0);
  return d.children.reduce((sum, child) => sum + bufferBytes(child), own);
}

/**
 * Runs decode; true when it returned, false when it threw a typed error;
 * rethrows anything else. Never hangs, as a bound on its work: what it
 * returns holds at most one value per bit of the input's buffers (a
 * corrupted length or dim size cannot make it build more).
 */
function decodeTyped(rb: RecordBatch): boolean {
  try {
    decode(rb, { nulls: "absent" });
    const values = decode(rb).reduce(
      (sum, batch) => sum + batch.arrays().reduce((n, [, array]) => n + array.size, 0),
      0,
    );
    expect(values).toBeLessThanOrEqual(8 * bufferBytes(rb.data));
    return true;
  } catch (err) {
    if (!isNdArrowError(err)) throw new Error(`decode threw an untyped error: ${String(err)}`, { cause: err });
    expect(err.message.length).toBeGreaterThan(10);
    return false;
  } finally {
    count("decodeCases");
  }
}

describe("decode over corrupted Arrow input", () => {
  const base = validBatch();
  const names = Object.keys(corruptions);

  it("a valid batch decodes (the base of the fuzz)", () => {
    expect(decode(base, { nulls: "absent" })).toHaveLength(3);
  });

  it("one to three corruptions anywhere in the column data: a typed NdArrowError or a result, never a crash or hang", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: base.numCols - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...names), fc.array(fc.nat(), { minLength: 4, maxLength: 4 })), {
          minLength: 1,
          maxLength: 3,
        }),
        (column, steps) => {
          let data = base.getChildAt(column)!.data[0]!;
          for (const [pick, name, draws] of steps) {
            const all = nodes(data);
            const target = all[pick % all.length]!;
            let k = 0;
            const r = (max: number) => (max <= 0 ? 0 : draws[k++ % draws.length]! % max);
            data = replaceAt(data, target.path, corruptions[name]!(target.data, r));
          }
          const fields = base.schema.fields.map((f, i) =>
            i === column ? new Field(f.name, data.type, f.nullable, f.metadata) : f,
          );
          const columns = base.schema.fields.map((_, i) => (i === column ? data : base.getChildAt(i)!.data[0]!));
          let rb: RecordBatch;
          try {
            const schema = new Schema(fields, base.schema.metadata);
            rb = new RecordBatch(
              schema,
              columns[0]!.clone(new Struct(fields), 0, base.numRows, 0, undefined, columns) as never,
            );
          } catch {
            return; // apache-arrow itself refused the shape: nothing reaches decode
          }
          decodeTyped(rb);
        },
      ),
      { seed: 42, numRuns: RUNS },
    );
  });

  it("flipped bytes in the record batch body of an IPC stream (offsets, sizes, values, validity): decodes or fails typed", () => {
    const bytes = tableToIPC(new Table(base), "stream");
    const [start, end] = recordBatchBody(bytes);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: start, max: end - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (flips) => {
          const copy = bytes.slice();
          for (const [at, value] of flips) copy[at] = value;
          for (const rb of tableFromIPC(copy).batches) decodeTyped(rb);
        },
      ),
      { seed: 42, numRuns: RUNS },
    );
  });
});

/**
 * The byte range of the body of the first record batch message of an IPC
 * stream. Flips in the message metadata would only test apache-arrow's
 * reader (it allocates whatever lengths it reads there).
 */
function recordBatchBody(bytes: Uint8Array): [number, number] {
  const reader = new MessageReader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  for (let next = reader.next(); !next.done; next = reader.next()) {
    const message = next.value;
    pos += 8 + view.getInt32(pos + 4, true);
    if (message.headerType === MessageHeader.RecordBatch) return [pos, pos + message.bodyLength];
    reader.readMessageBody(message.bodyLength);
    pos += message.bodyLength;
  }
  throw new Error("no record batch in the stream");
}
