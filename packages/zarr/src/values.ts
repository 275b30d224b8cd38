/**
 * zarrita's decoded selections as Arrow vectors, in row-major order: plain
 * numbers are wrapped without a copy, booleans packed to a bitmap, times
 * keep their raw counts (NaT is null), strings and byte strings gathered.
 */
import { toVector } from "@lance-nd/nd-arrow";
import { Binary, Bool, type DateDay, Type, makeData, Vector } from "apache-arrow";
import type { Data, DataType } from "apache-arrow";
import type { Chunk, DataType as ZarritaType } from "zarrita";
import type { ZarrType } from "./data-type.js";

/** numpy's NaT: the smallest int64. */
const NAT = -(2n ** 63n);

type Indexable = { length: number; [i: number]: unknown };

/** The values of a zarrita selection `chunk` of Zarr type `type`, row-major. */
export function toArrowValues(chunk: Chunk<ZarritaType>, type: ZarrType): Vector {
  const order = gatherOrder(chunk.shape, chunk.stride);
  const data = chunk.data as unknown;
  switch (type.kind) {
    case "plain": {
      const typed = data as ArrayLike<number> & { constructor: new (n: number) => Indexable };
      return toVector((order === undefined ? typed : gather(typed, order)) as never, type.arrow);
    }
    case "bool": {
      const raw = data as { buffer: ArrayBuffer; byteOffset: number; length: number };
      const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
      return boolVector(order === undefined ? bytes : (gather(bytes as never, order) as unknown as Uint8Array));
    }
    case "time": {
      const raw = data as BigInt64Array;
      return timeVector(
        order === undefined ? raw : (gather(raw as never, order) as unknown as BigInt64Array),
        type.arrow,
      );
    }
    case "text": {
      const items = data as { length: number; get?(i: number): string } & ArrayLike<string>;
      const at = items.get === undefined ? (i: number) => items[i]! : (i: number) => items.get!(i);
      const strings = Array.from({ length: items.length }, (_, i) => at(order === undefined ? i : order[i]!));
      return toVector(strings, type.arrow);
    }
    case "bytes":
      return bytesVector(data as { _data: Uint8Array; chars: number }, order);
  }
}

/** Source positions in row-major order, or `undefined` when `stride` is already row-major. */
function gatherOrder(shape: readonly number[], stride: readonly number[]): Int32Array | undefined {
  let expected = 1;
  let rowMajor = true;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d]! > 1 && stride[d] !== expected) rowMajor = false;
    expected *= shape[d]!;
  }
  if (rowMajor) return undefined;
  const order = new Int32Array(expected);
  const index = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < expected; i++) {
    let at = 0;
    for (let d = 0; d < shape.length; d++) at += index[d]! * stride[d]!;
    order[i] = at;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d]! < shape[d]!) break;
      index[d] = 0;
    }
  }
  return order;
}

function gather(values: Indexable & { constructor: new (n: number) => Indexable }, order: Int32Array): Indexable {
  const out = new values.constructor(order.length);
  for (let i = 0; i < order.length; i++) out[i] = values[order[i]!];
  return out;
}

function boolVector(bytes: Uint8Array): Vector {
  const bitmap = new Uint8Array(Math.ceil(bytes.length / 8));
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) bitmap[i >> 3]! |= 1 << (i & 7);
  return new Vector([makeData({ type: new Bool(), length: bytes.length, data: bitmap })]);
}

/** Times as raw counts of their unit (days for Date32); NaT becomes null. */
function timeVector(raw: BigInt64Array, type: DataType): Vector {
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== NAT) continue;
    nullBitmap ??= new Uint8Array(Math.ceil(raw.length / 8)).fill(0xff);
    nullBitmap[i >> 3]! &= ~(1 << (i & 7));
    nullCount++;
  }
  const values = type.typeId === Type.Date ? Int32Array.from(raw, (v) => (v === NAT ? 0 : Number(v))) : raw;
  const data = makeData({
    type: type as DateDay,
    length: raw.length,
    data: values as Int32Array,
    nullBitmap,
    nullCount,
  } as never) as Data;
  return new Vector([data]);
}

/** numpy `S` strings: fixed-width bytes with trailing NULs stripped. */
function bytesVector(
  { _data: bytes, chars }: { _data: Uint8Array; chars: number },
  order: Int32Array | undefined,
): Vector {
  const length = chars === 0 ? 0 : bytes.length / chars;
  const valueOffsets = new Int32Array(length + 1);
  const values = new Uint8Array(bytes.length);
  let end = 0;
  for (let i = 0; i < length; i++) {
    const start = (order === undefined ? i : order[i]!) * chars;
    let n = chars;
    while (n > 0 && bytes[start + n - 1] === 0) n--;
    values.set(bytes.subarray(start, start + n), end);
    end += n;
    valueOffsets[i + 1] = end;
  }
  return new Vector([makeData({ type: new Binary(), length, valueOffsets, data: values.subarray(0, end) })]);
}
