/**
 * Gather kernels over Arrow vectors: `take` copies the values at given
 * positions into a new single-chunk vector, `takeStrided` / `scatterStrided`
 * copy strided walks over a grid, `concatData` joins chunks into one.
 * They work on the raw buffers (values, offsets, validity bitmaps) of every
 * value type of spec section 3 and keep nulls. Ascending runs of positions
 * are copied as blocks, which is what chunking along outer dims produces.
 */
import { makeData, makeVector, Type } from "apache-arrow";
import type { Data, DataType, Vector } from "apache-arrow";
import { sameType, type TypedArray } from "./data-type.js";
import { NdArrowError } from "./errors.js";

/** Positions to gather, one per output value. */
export type IndexArray = Uint32Array | Int32Array;

/** Ascending runs at least this long are copied with `subarray`/`set`. */
const BLOCK_RUN = 8;
/** Strings or binaries at least this long are copied with `subarray`/`set`. */
const BLOCK_BYTES = 32;
const TWO_32 = 4294967296;

/**
 * The values of `vector` at `indices`, in that order, as a new single-chunk
 * vector of the same type (nulls stay null). Positions may repeat.
 *
 * Throws `InvalidArgument` for a position outside the vector and
 * `UnsupportedType` for a type outside spec section 3.
 *
 * @example
 * take(vectorFromArray([10, 20, 30]), Uint32Array.of(2, 0, 0)); // [30, 10, 10]
 */
export function take<T extends DataType>(vector: Vector<T>, indices: IndexArray): Vector<T> {
  return makeVector(takeData(concatData(vector.data), indices));
}

/** {@link take} on one `Data`. */
function takeData<T extends DataType>(data: Data<T>, indices: IndexArray): Data<T> {
  checkIndices(indices, data.length);
  const n = indices.length;
  const { type } = data;
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  if (data.nullCount > 0) {
    nullBitmap = new Uint8Array(bitmapBytes(n));
    nullCount = n - gatherBits(data.nullBitmap!, data.offset, indices, nullBitmap);
    if (nullCount === 0) nullBitmap = undefined;
  }
  switch (kindOf(type)) {
    case "bits": {
      const bits = new Uint8Array(bitmapBytes(n));
      gatherBits(data.values as Uint8Array, data.offset, indices, bits);
      return build(type, n, nullCount, nullBitmap, { data: bits });
    }
    case "fixed":
      return build(type, n, nullCount, nullBitmap, { data: gatherFixed(data.values, indices) });
    case "varlen": {
      const { offsets, bytes } = gatherVarlen(offsetView(data.valueOffsets, isWide(type)), data.values as Uint8Array, indices);
      return build(type, n, nullCount, nullBitmap, { valueOffsets: offsets, data: bytes });
    }
  }
}

/**
 * `Data` chunks of one type joined, in order, into one `Data` (the chunk
 * itself when there is one). Throws `InvalidArgument` for no chunks or
 * chunks of different types.
 */
export function concatData<T extends DataType>(chunks: readonly Data<T>[]): Data<T> {
  const first = chunks[0];
  if (first === undefined) {
    throw new NdArrowError("InvalidArgument", "cannot concatenate zero chunks: the value type is unknown");
  }
  if (chunks.length === 1) return first;
  const { type } = first;
  for (const [i, c] of chunks.entries()) {
    if (!sameType(c.type, type)) {
      throw new NdArrowError("InvalidArgument", `chunk ${i} has type ${c.type}, expected ${type}`);
    }
  }
  const length = chunks.reduce((sum, c) => sum + c.length, 0);
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  if (chunks.some((c) => c.nullCount > 0)) {
    nullBitmap = new Uint8Array(bitmapBytes(length));
    let at = 0;
    for (const c of chunks) {
      if (c.nullCount > 0) copyBits(c.nullBitmap!, c.offset, nullBitmap, at, c.length);
      else setBits(nullBitmap, at, c.length);
      nullCount += c.nullCount;
      at += c.length;
    }
  }
  switch (kindOf(type)) {
    case "bits": {
      const bits = new Uint8Array(bitmapBytes(length));
      let at = 0;
      for (const c of chunks) {
        copyBits(c.values as Uint8Array, c.offset, bits, at, c.length);
        at += c.length;
      }
      return build(type, length, nullCount, nullBitmap, { data: bits });
    }
    case "fixed": {
      const width = first.values.BYTES_PER_ELEMENT as number;
      const out = new Uint8Array(length * width);
      let at = 0;
      for (const c of chunks) {
        out.set(bytesOf(c.values).subarray(0, c.length * width), at);
        at += c.length * width;
      }
      return build(type, length, nullCount, nullBitmap, { data: retype(out, first.values) });
    }
    case "varlen": {
      const wide = isWide(type);
      const total = chunks.reduce((sum, c) => {
        const o = offsetView(c.valueOffsets, wide);
        return sum + offsetAt(o, c.length) - offsetAt(o, 0);
      }, 0);
      checkByteLength(total, wide);
      const bytes = new Uint8Array(total);
      const offsets = newOffsets(length + 1, wide);
      const out = offsetView(offsets, wide);
      let at = 0;
      let pos = 0;
      for (const c of chunks) {
        const o = offsetView(c.valueOffsets, wide);
        const base = offsetAt(o, 0);
        for (let i = 0; i <= c.length; i++) setOffset(out, at + i, pos + offsetAt(o, i) - base);
        const end = offsetAt(o, c.length);
        bytes.set((c.values as Uint8Array).subarray(base, end), pos);
        pos += end - base;
        at += c.length;
      }
      return build(type, length, nullCount, nullBitmap, { valueOffsets: offsets, data: bytes });
    }
  }
}

/**
 * Positions of a strided walk, row-major over `sizes`: entry `(i0, i1, ...)`
 * is `start + i0 * strides[0] + i1 * strides[1] + ...`. A stride of 0
 * repeats (broadcasts) along that dim. Built block by block, no per-cell
 * arithmetic over all dims.
 *
 * @example
 * stridedIndices([2, 3], [1, 0]);       // [0, 0, 0, 1, 1, 1]
 * stridedIndices([2, 2], [4, 1], 5);    // [5, 6, 9, 10]
 */
export function stridedIndices(sizes: readonly number[], strides: readonly number[], start = 0): Uint32Array {
  const total = sizes.reduce((n, s) => n * s, 1);
  const out = new Uint32Array(total);
  if (total === 0) return out;
  out[0] = start;
  let block = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    const size = sizes[d]!;
    const stride = strides[d]!;
    if (stride === 0 && block === 1) out.fill(start, 1, size);
    else {
      for (let j = 1; j < size; j++) {
        const at = j * block;
        const add = j * stride;
        if (add === 0) out.copyWithin(at, 0, block);
        else for (let k = 0; k < block; k++) out[at + k] = out[k]! + add;
      }
    }
    block *= size;
  }
  return out;
}

/**
 * {@link take} of the strided walk {@link stridedIndices}`(sizes, strides,
 * start)`. Fixed-width values without nulls are copied block by block where
 * the walk is contiguous (e.g. a chunk along outer dims), without building
 * the index array; anything else goes through `take`.
 */
export function takeStrided<T extends DataType>(
  vector: Vector<T>,
  sizes: readonly number[],
  strides: readonly number[],
  start = 0,
): Vector<T> {
  const data = concatData(vector.data);
  const total = sizes.reduce((n, s) => n * s, 1);
  const fast = blockPlan(sizes, strides, rowMajorStrides(sizes));
  if (kindOf(data.type) !== "fixed" || data.nullCount > 0 || fast === undefined || total === 0) {
    return makeVector(takeData(data, stridedIndices(sizes, strides, start)));
  }
  const last = start + sizes.reduce((sum, size, d) => sum + (size - 1) * strides[d]!, 0);
  if (start < 0 || last >= data.length) {
    throw new NdArrowError("InvalidArgument", `strided walk reaches index ${last}, out of range for ${data.length} values`);
  }
  const width = data.values.BYTES_PER_ELEMENT;
  const out = new Uint8Array(total * width);
  copyBlocks(data.values, start, out, 0, fast);
  return makeVector(build(data.type, total, 0, undefined, { data: retype(out, data.values) }));
}

/** One part for {@link scatterStrided}: row-major values of shape `sizes`, placed at `start`. */
export interface StridedPart<T extends DataType = DataType> {
  values: Vector<T>;
  sizes: readonly number[];
  start: number;
}

/**
 * The inverse of {@link takeStrided} over several parts: a new vector of
 * `length` values where each part's values land at `start` + its
 * coordinates times `strides`. Every position must be written by exactly
 * one part (the caller checks the tiling). Fixed-width values without nulls
 * are copied block by block; others gather through one index array.
 */
export function scatterStrided<T extends DataType>(
  parts: readonly StridedPart<T>[],
  strides: readonly number[],
  length: number,
): Vector<T> {
  const datas = parts.map((p) => concatData(p.values.data));
  const first = datas[0];
  if (first === undefined) throw new NdArrowError("InvalidArgument", "nothing to scatter: no parts");
  const plans = parts.map((p) => blockPlan(p.sizes, rowMajorStrides(p.sizes), strides));
  const fast = kindOf(first.type) === "fixed" && datas.every((d) => d.nullCount === 0) && plans.every((p) => p !== undefined);
  if (!fast) {
    const index = new Uint32Array(length);
    let base = 0;
    parts.forEach((p, k) => {
      const cells = stridedIndices(p.sizes, strides, p.start);
      for (let j = 0; j < cells.length; j++) index[cells[j]!] = base + j;
      base += datas[k]!.length;
    });
    return makeVector(takeData(concatData(datas), index));
  }
  const width = first.values.BYTES_PER_ELEMENT;
  const out = new Uint8Array(length * width);
  parts.forEach((p, k) => copyBlocks(datas[k]!.values, 0, out, p.start, plans[k]!));
  return makeVector(build(first.type, length, 0, undefined, { data: retype(out, first.values) }));
}

/**
 * A strided copy as blocks: the outer sizes, both sides' outer strides, and
 * the block length; `fill` when the source repeats one value over the block
 * (source stride 0, a broadcast), else the block is contiguous on both sides.
 */
interface BlockPlan {
  outer: number[];
  srcStrides: number[];
  dstStrides: number[];
  block: number;
  fill: boolean;
}

/**
 * Merges the trailing dims that are contiguous on both sides (`src` and
 * `dst` strides), or repeat one source value into a contiguous destination,
 * into one block; `undefined` when blocks would be shorter than
 * {@link BLOCK_RUN} values (element gathers are faster then).
 */
function blockPlan(sizes: readonly number[], src: readonly number[], dst: readonly number[]): BlockPlan | undefined {
  let d = sizes.length;
  while (d > 0 && sizes[d - 1] === 1) d--;
  const fill = d > 0 && src[d - 1] === 0;
  let block = 1;
  while (d > 0 && (sizes[d - 1] === 1 || (src[d - 1] === (fill ? 0 : block) && dst[d - 1] === block))) {
    block *= sizes[d - 1]!;
    d--;
  }
  if (block < BLOCK_RUN && d > 0) return undefined;
  return { outer: sizes.slice(0, d), srcStrides: src.slice(0, d), dstStrides: dst.slice(0, d), block, fill };
}

function copyBlocks(values: TypedArray, srcStart: number, out: Uint8Array, dstStart: number, plan: BlockPlan): void {
  const from = stridedIndices(plan.outer, plan.srcStrides, srcStart);
  const to = stridedIndices(plan.outer, plan.dstStrides, dstStart);
  const width = values.BYTES_PER_ELEMENT;
  if (plan.fill) {
    for (let k = 0; k < from.length; k++) fillRun(values, from[k]!, out, to[k]!, to[k]! + plan.block);
    return;
  }
  const src = bytesOf(values);
  const bytes = plan.block * width;
  for (let k = 0; k < from.length; k++) {
    const at = from[k]! * width;
    out.set(src.subarray(at, at + bytes), to[k]! * width);
  }
}

/** Row-major strides of `sizes` (the last dim has stride 1). */
export function rowMajorStrides(sizes: readonly number[]): number[] {
  const strides = new Array<number>(sizes.length);
  let step = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= sizes[d]!;
  }
  return strides;
}

/** `length` null values of `type` (zeroed buffers), e.g. the slots under a null list row. */
export function nullData<T extends DataType>(type: T, length: number): Data<T> {
  const nullBitmap = new Uint8Array(bitmapBytes(length));
  switch (kindOf(type)) {
    case "bits":
      return build(type, length, length, nullBitmap, { data: new Uint8Array(bitmapBytes(length)) });
    case "fixed":
      return build(type, length, length, nullBitmap, { data: new (type.ArrayType as new (n: number) => TypedArray)(length) });
    case "varlen":
      return build(type, length, length, nullBitmap, { data: new Uint8Array(0), valueOffsets: newOffsets(length + 1, isWide(type)) });
  }
}

/**
 * True when `a` and `b` hold the same values: same type, length, nulls, and
 * the same bytes in every valid slot (what sits under a null is ignored).
 */
export function sameValues(a: Vector, b: Vector): boolean {
  if (a === b) return true;
  if (!sameType(a.type, b.type) || a.length !== b.length) return false;
  if (a.data.length === 1 && b.data.length === 1 && a.data[0] === b.data[0]) return true;
  const x = concatData(a.data);
  const y = concatData(b.data);
  const n = x.length;
  const validX = x.nullCount > 0 ? x.nullBitmap : undefined;
  const validY = y.nullCount > 0 ? y.nullBitmap : undefined;
  const isValid = (bits: Uint8Array | undefined, offset: number, i: number) => bits === undefined || getBit(bits, offset + i) === 1;
  const kind = kindOf(x.type);
  const width = kind === "fixed" ? (x.values as TypedArray).BYTES_PER_ELEMENT : 0;
  const bytesX = kind === "fixed" ? bytesOf(x.values) : (x.values as Uint8Array);
  const bytesY = kind === "fixed" ? bytesOf(y.values) : (y.values as Uint8Array);
  const wide = isWide(x.type);
  const offX = kind === "varlen" ? offsetView(x.valueOffsets, wide) : undefined;
  const offY = kind === "varlen" ? offsetView(y.valueOffsets, wide) : undefined;
  for (let i = 0; i < n; i++) {
    const valid = isValid(validX, x.offset, i);
    if (valid !== isValid(validY, y.offset, i)) return false;
    if (!valid) continue;
    if (kind === "bits") {
      if (getBit(bytesX, x.offset + i) !== getBit(bytesY, y.offset + i)) return false;
    } else if (kind === "fixed") {
      for (let k = i * width; k < (i + 1) * width; k++) if (bytesX[k] !== bytesY[k]) return false;
    } else {
      const ax = offsetAt(offX!, i);
      const ay = offsetAt(offY!, i);
      const len = offsetAt(offX!, i + 1) - ax;
      if (len !== offsetAt(offY!, i + 1) - ay) return false;
      for (let k = 0; k < len; k++) if (bytesX[ax + k] !== bytesY[ay + k]) return false;
    }
  }
  return true;
}

type Kind = "bits" | "fixed" | "varlen";

/** `makeData` for the three kinds, typed as the source's `Data<T>`. */
function build<T extends DataType>(
  type: T,
  length: number,
  nullCount: number,
  nullBitmap: Uint8Array | undefined,
  buffers: { data: TypedArray; valueOffsets?: Int32Array | BigInt64Array },
): Data<T> {
  return makeData({ type, length, nullCount, nullBitmap, ...buffers } as never) as unknown as Data<T>;
}

function kindOf(type: DataType): Kind {
  switch (type.typeId) {
    case Type.Bool:
      return "bits";
    case Type.Int:
    case Type.Float:
    case Type.Timestamp:
    case Type.Date:
    case Type.Time:
    case Type.Duration:
      return "fixed";
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.LargeBinary:
      return "varlen";
    default:
      throw new NdArrowError("UnsupportedType", `cannot gather values of type ${type}`);
  }
}

function checkIndices(indices: IndexArray, length: number): void {
  for (let i = 0; i < indices.length; i++) {
    const j = indices[i]!;
    if (j < 0 || j >= length) {
      throw new NdArrowError("InvalidArgument", `index ${j} at position ${i} is out of range for ${length} values`);
    }
  }
}

/** The end of the ascending run (j, j+1, ...) that starts at position `i`. */
function runEnd(indices: IndexArray, i: number): number {
  const n = indices.length;
  const start = indices[i]! - i;
  let k = i + 1;
  while (k < n && indices[k] === start + k) k++;
  return k;
}

function bitmapBytes(bits: number): number {
  return (bits + 7) >> 3;
}

function getBit(bits: Uint8Array, i: number): number {
  return (bits[i >> 3]! >> (i & 7)) & 1;
}

/** Copies `len` bits into a zeroed destination range; byte-wise where both sides line up. */
function copyBits(src: Uint8Array, srcAt: number, dst: Uint8Array, dstAt: number, len: number): void {
  let i = 0;
  if ((srcAt & 7) === (dstAt & 7)) {
    for (; i < len && ((dstAt + i) & 7) !== 0; i++) dst[(dstAt + i) >> 3]! |= getBit(src, srcAt + i) << ((dstAt + i) & 7);
    const whole = (len - i) >> 3;
    if (whole > 0) {
      const s = (srcAt + i) >> 3;
      dst.set(src.subarray(s, s + whole), (dstAt + i) >> 3);
      i += whole << 3;
    }
  }
  for (; i < len; i++) dst[(dstAt + i) >> 3]! |= getBit(src, srcAt + i) << ((dstAt + i) & 7);
}

function setBits(dst: Uint8Array, at: number, len: number): void {
  for (let i = at; i < at + len; i++) dst[i >> 3]! |= 1 << (i & 7);
}

/** Gathers bits `srcAt + indices[i]` into bit `i` of the zeroed `dst`; returns how many are set. */
function gatherBits(src: Uint8Array, srcAt: number, indices: IndexArray, dst: Uint8Array): number {
  const n = indices.length;
  for (let i = 0; i < n; ) {
    const end = runEnd(indices, i);
    if (end - i >= BLOCK_RUN) {
      copyBits(src, srcAt + indices[i]!, dst, i, end - i);
    } else {
      for (let k = i; k < end; k++) dst[k >> 3]! |= getBit(src, srcAt + indices[k]!) << (k & 7);
    }
    i = end;
  }
  let set = 0;
  for (let b = 0; b < dst.length; b++) set += popcount8(dst[b]!);
  return set;
}

function popcount8(x: number): number {
  x -= (x >> 1) & 0x55;
  x = (x & 0x33) + ((x >> 2) & 0x33);
  return (x + (x >> 4)) & 0x0f;
}


function bytesOf(values: TypedArray): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** A view of `bytes` with the typed-array class of `like` (the type's `ArrayType`). */
function retype(bytes: Uint8Array, like: TypedArray): TypedArray {
  const Ctor = like.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray;
  const per = like.BYTES_PER_ELEMENT;
  return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / per);
}

/**
 * Fixed-width gather: values are copied as 1, 2 or 4-byte unsigned units
 * (8-byte values as two 4-byte units), so float bit patterns (NaN payloads)
 * and 64-bit integers pass through untouched without BigInt boxing.
 */
function gatherFixed(values: TypedArray, indices: IndexArray): TypedArray {
  const width = values.BYTES_PER_ELEMENT;
  const n = indices.length;
  const out = new Uint8Array(n * width);
  const unit = Math.min(width, 4);
  const per = width / unit;
  const src = unitView(values.buffer, values.byteOffset, values.byteLength, unit);
  const dst = unitView(out.buffer, 0, out.byteLength, unit);
  for (let i = 0; i < n; ) {
    const s = indices[i]!;
    let end = i + 1;
    if (end < n && indices[end] === s) {
      while (end < n && indices[end] === s) end++;
      if (end - i >= BLOCK_RUN) {
        fillRun(values, s, out, i, end);
        i = end;
        continue;
      }
    } else {
      end = runEnd(indices, i);
      if (end - i >= BLOCK_RUN) {
        dst.set(src.subarray(s * per, (s + end - i) * per), i * per);
        i = end;
        continue;
      }
    }
    if (per === 1) {
      for (let k = i; k < end; k++) dst[k] = src[indices[k]!]!;
    } else {
      for (let k = i; k < end; k++) {
        const j = indices[k]! * 2;
        dst[2 * k] = src[j]!;
        dst[2 * k + 1] = src[j + 1]!;
      }
    }
    i = end;
  }
  return retype(out, values);
}

/** Fills values `from` to `to` of `out` with value `at` of `values` (8-byte values through one BigInt per run). */
function fillRun(values: TypedArray, at: number, out: Uint8Array, from: number, to: number): void {
  const width = values.BYTES_PER_ELEMENT;
  if (width === 8) {
    const value = new BigInt64Array(values.buffer, values.byteOffset, values.length)[at]!;
    new BigInt64Array(out.buffer, 0, out.byteLength / 8).fill(value, from, to);
  } else {
    const src = unitView(values.buffer, values.byteOffset, values.byteLength, width);
    unitView(out.buffer, 0, out.byteLength, width).fill(src[at]!, from, to);
  }
}

function unitView(buffer: ArrayBufferLike, byteOffset: number, byteLength: number, unit: number) {
  if (unit === 1) return new Uint8Array(buffer, byteOffset, byteLength);
  if (unit === 2) return new Uint16Array(buffer, byteOffset, byteLength / 2);
  return new Uint32Array(buffer, byteOffset, byteLength / 4);
}

/** Offsets as 32-bit words: one per offset (Int32) or a low/high pair (Int64, little-endian). */
interface OffsetView {
  words: Int32Array;
  wide: boolean;
}

/** True for the types with 64-bit offsets. */
function isWide(type: DataType): boolean {
  return type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary;
}

function offsetView(offsets: Int32Array | BigInt64Array, wide: boolean): OffsetView {
  return { words: new Int32Array(offsets.buffer, offsets.byteOffset, wide ? offsets.length * 2 : offsets.length), wide };
}

function offsetAt({ words, wide }: OffsetView, i: number): number {
  return wide ? (words[2 * i]! >>> 0) + words[2 * i + 1]! * TWO_32 : words[i]!;
}

function setOffset({ words, wide }: OffsetView, i: number, value: number): void {
  if (wide) {
    words[2 * i] = value % TWO_32;
    words[2 * i + 1] = Math.floor(value / TWO_32);
  } else {
    words[i] = value;
  }
}

function newOffsets(count: number, wide: boolean): Int32Array | BigInt64Array {
  return wide ? new BigInt64Array(count) : new Int32Array(count);
}

function checkByteLength(total: number, wide: boolean): void {
  if (!wide && total > 0x7fffffff) {
    throw new NdArrowError("InvalidArgument", `result holds ${total} bytes, more than 32-bit offsets can address`);
  }
}

/** Variable-width gather (Utf8, Binary and their Large variants): offsets first, then bytes. */
function gatherVarlen(
  src: OffsetView,
  values: Uint8Array,
  indices: IndexArray,
): { offsets: Int32Array | BigInt64Array; bytes: Uint8Array } {
  const n = indices.length;
  const { wide } = src;
  const offsets = newOffsets(n + 1, wide);
  const dst = offsetView(offsets, wide);
  let total = 0;
  for (let k = 0; k < n; k++) {
    const j = indices[k]!;
    total += offsetAt(src, j + 1) - offsetAt(src, j);
    setOffset(dst, k + 1, total);
  }
  checkByteLength(total, wide);
  const bytes = new Uint8Array(total);
  let pos = 0;
  for (let i = 0; i < n; ) {
    const end = runEnd(indices, i);
    const s = indices[i]!;
    if (end - i >= BLOCK_RUN) {
      const a = offsetAt(src, s);
      const b = offsetAt(src, s + end - i);
      bytes.set(values.subarray(a, b), pos);
      pos += b - a;
    } else {
      for (let k = i; k < end; k++) {
        const j = indices[k]!;
        const a = offsetAt(src, j);
        const b = offsetAt(src, j + 1);
        if (b - a >= BLOCK_BYTES) bytes.set(values.subarray(a, b), pos);
        else for (let x = a; x < b; x++) bytes[pos + x - a] = values[x]!;
        pos += b - a;
      }
    }
    i = end;
  }
  return { offsets, bytes };
}
