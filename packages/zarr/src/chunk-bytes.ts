/**
 * One Zarr chunk's values and bytes (README "Writing"): a row's block as a
 * chunk holds it (nulls replaced by the fill value), chunks of the fill
 * value, and the bytes of a chunk: C order, little-endian (the v2 `<`
 * dtypes, the v3 `bytes` codec), strings as vlen-utf8 (count, then a length
 * and the UTF-8 bytes of each), `|S<n>` byte strings NUL-padded to `n`
 * bytes (byte-strings.ts), then zstd when asked.
 */
import { DataType, Precision, Type, util } from "apache-arrow";
import type { Vector } from "apache-arrow";
import * as zarr from "zarrita";
import { fixedWidthBytes, fromFixedWidthBytes, latin1Fill, latin1Values } from "./byte-strings.js";
import type { WriteType } from "./data-type.js";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** numpy's NaT: nulls of datetime64/timedelta64. */
const NAT = -(2n ** 63n);

/** A typed array of stored values (Float16 as its bits, 64-bit integers and times as bigints, Bool as bytes). */
export type Plain = {
  length: number;
  [i: number]: number | bigint;
  subarray(a: number, b: number): Plain;
  set(src: Plain, at: number): void;
  fill(v: number | bigint): Plain;
};

/** Values in row-major order as a chunk holds them: stored numbers, or strings (Latin-1 ones for `|S<n>`). */
export type ChunkValues = Plain | string[];

/** A row's block ready to place into chunks: its values and the fill of the chunk cells it does not cover. */
export interface Block {
  readonly values: ChunkValues;
  readonly fill: number | bigint | string;
}

/**
 * `values` (one array of a row) as a chunk holds them, with the fill value
 * of padding cells. `fill` replaces nulls (a null with no fill is
 * `InvalidArgument`; time nulls are NaT).
 */
export function blockOf(
  values: Vector,
  type: WriteType,
  fill: number | bigint | boolean | string | undefined,
  where: ZarrErrorContext,
): Block {
  const isTime = values.type.typeId === Type.Timestamp || values.type.typeId === Type.Duration;
  if (values.nullCount > 0 && fill === undefined && !isTime) {
    throw new ZarrError(
      "InvalidArgument",
      `has ${values.nullCount} null values and no _FillValue attribute to write them as`,
      where,
    );
  }
  if (type.layout === "bytes") {
    const fillBytes = latin1Fill(fill === undefined ? undefined : String(fill));
    return { values: latin1Values(values, type.itemSize, fillBytes, where), fill: fillBytes };
  }
  if (type.layout === "text") {
    return {
      values: Array.from(values as Iterable<string | null>, (s) => s ?? String(fill)),
      fill: fill === undefined ? "" : String(fill),
    };
  }
  if (type.layout === "bool") {
    const bytes = Uint8Array.from(values as Iterable<boolean | null>, (b) => ((b ?? fill === true) ? 1 : 0));
    return { values: bytes as unknown as Plain, fill: fill === true ? 1 : 0 };
  }
  let plain = contiguous(values);
  const wide = plain instanceof BigInt64Array || plain instanceof BigUint64Array;
  const half = DataType.isFloat(values.type) && values.type.precision === Precision.HALF;
  /** A number as the storage holds it: bigint for 64-bit integers and times, half-float bits for Float16. */
  const stored = (value: number | bigint): number | bigint =>
    wide ? BigInt(value) : half ? util.float64ToUint16(Number(value)) : Number(value);
  const numericFill = typeof fill === "number" || typeof fill === "bigint" ? fill : 0;
  if (values.nullCount > 0) {
    const nullValue = isTime ? NAT : stored(numericFill);
    const copy = new (plain.constructor as new (n: number) => Plain)(plain.length);
    copy.set(plain, 0);
    for (let i = 0; i < copy.length; i++) if (!values.isValid(i)) copy[i] = nullValue;
    plain = copy;
  }
  return { values: plain, fill: stored(numericFill) };
}

/** A chunk of `size` cells of the block's fill value, of the block's kind. */
export function filledChunk(block: Block, size: number): ChunkValues {
  if (Array.isArray(block.values)) return new Array<string>(size).fill(String(block.fill));
  return new (block.values.constructor as new (n: number) => Plain)(size).fill(block.fill as number | bigint);
}

/** The uncompressed bytes of a chunk of an array of Zarr type `type`. */
export function chunkToBytes(chunk: ChunkValues, type: WriteType): Uint8Array {
  if (Array.isArray(chunk)) return type.layout === "bytes" ? fixedWidthBytes(chunk, type.itemSize) : vlenUtf8(chunk);
  const view = chunk as unknown as ArrayBufferView;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** A chunk's values from its uncompressed bytes, of the kind of `like` (for writing a chunk in pieces). */
export function chunkFromBytes(bytes: Uint8Array, like: ChunkValues, type: WriteType): ChunkValues {
  if (Array.isArray(like))
    return type.layout === "bytes" ? fromFixedWidthBytes(bytes, type.itemSize) : fromVlenUtf8(bytes);
  const Ctor = like.constructor as unknown as new (buffer: ArrayBuffer) => Plain;
  return new Ctor(bytes.slice().buffer);
}

/** The values as one typed array (Arrow's storage: Uint16Array bits for Float16, BigInt64Array for times). */
function contiguous(values: Vector): Plain {
  if (values.data.length === 1) {
    const data = values.data[0]!;
    return (data.values as unknown as Plain).subarray(0, data.length);
  }
  const parts = values.data.map((d) => (d.values as unknown as Plain).subarray(0, d.length));
  const out = new (parts[0]!.constructor as new (n: number) => Plain)(values.length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The vlen-utf8 encoding (numcodecs VLenUTF8, the v3 `vlen-utf8` codec). */
function vlenUtf8(strings: readonly string[]): Uint8Array {
  const encoder = new TextEncoder();
  const encoded = strings.map((s) => encoder.encode(s));
  const out = new Uint8Array(4 + encoded.reduce((n, b) => n + 4 + b.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, encoded.length, true);
  let at = 4;
  for (const bytes of encoded) {
    view.setUint32(at, bytes.length, true);
    out.set(bytes, at + 4);
    at += 4 + bytes.length;
  }
  return out;
}

/** The strings of a vlen-utf8 chunk. */
function fromVlenUtf8(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  const out = new Array<string>(view.getUint32(0, true));
  let at = 4;
  for (let i = 0; i < out.length; i++) {
    const length = view.getUint32(at, true);
    out[i] = decoder.decode(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

/** A chunk codec: zstd at `level` (zarrita's numcodecs zstd), or none. */
export interface ChunkCodec {
  encode(bytes: Uint8Array): Promise<Uint8Array>;
  decode(bytes: Uint8Array): Promise<Uint8Array>;
}

/** The chunk codec of `compression`. */
export async function chunkCodec(
  compression: { codec: "zstd"; level: number } | { codec: "none" },
): Promise<ChunkCodec> {
  if (compression.codec === "none") return { encode: async (bytes) => bytes, decode: async (bytes) => bytes };
  type Numcodec = {
    encode(b: Uint8Array): Uint8Array | Promise<Uint8Array>;
    decode(b: Uint8Array): Uint8Array | Promise<Uint8Array>;
  };
  const entry = await zarr.registry.get("zstd")!();
  const codec = (entry as unknown as { fromConfig(config: { level: number; id: string }): Numcodec }).fromConfig({
    id: "zstd",
    level: compression.level,
  });
  return { encode: async (bytes) => await codec.encode(bytes), decode: async (bytes) => await codec.decode(bytes) };
}
