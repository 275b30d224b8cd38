/**
 * One Zarr chunk's bytes from one row's block of an array (README
 * "Writing"): the block placed at the start of a chunk of the full chunk
 * shape (edge chunks padded with the fill value), C order, little-endian
 * (the v2 `<` dtypes, the v3 `bytes` codec), strings as vlen-utf8 (count,
 * then a length and the UTF-8 bytes of each), then zstd when asked.
 */
import { DataType, Precision, Type, util } from "apache-arrow";
import type { Vector } from "apache-arrow";
import * as zarr from "zarrita";
import type { WriteType } from "./data-type.js";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** numpy's NaT: nulls of datetime64/timedelta64. */
const NAT = -(2n ** 63n);

type Plain = {
  length: number;
  [i: number]: number | bigint;
  subarray(a: number, b: number): Plain;
  set(src: Plain, at: number): void;
  fill(v: number | bigint): Plain;
};

/**
 * The uncompressed chunk of `values` (row-major, shape `blockShape`) in a
 * chunk of `chunkShape`. `fill` pads edge chunks and replaces nulls (a null
 * with no fill is `InvalidArgument`; time nulls are NaT).
 */
export function chunkBytes(
  values: Vector,
  type: WriteType,
  blockShape: readonly number[],
  chunkShape: readonly number[],
  fill: number | bigint | boolean | string | undefined,
  where: ZarrErrorContext,
): Uint8Array {
  const isTime = values.type.typeId === Type.Timestamp || values.type.typeId === Type.Duration;
  if (values.nullCount > 0 && fill === undefined && !isTime) {
    throw new ZarrError(
      "InvalidArgument",
      `has ${values.nullCount} null values and no _FillValue attribute to write them as`,
      where,
    );
  }
  const chunkSize = chunkShape.reduce((n, s) => n * s, 1);
  if (type.layout === "text") {
    const strings = Array.from(values as Iterable<string | null>, (s) => s ?? String(fill));
    return vlenUtf8(
      place(strings, blockShape, chunkShape, new Array<string>(chunkSize).fill(fill === undefined ? "" : String(fill))),
    );
  }
  if (type.layout === "bool") {
    const bytes = Uint8Array.from(values as Iterable<boolean | null>, (b) => ((b ?? fill === true) ? 1 : 0));
    return place(
      bytes as unknown as Plain,
      blockShape,
      chunkShape,
      new Uint8Array(chunkSize).fill(fill === true ? 1 : 0) as unknown as Plain,
    ) as unknown as Uint8Array;
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
  const Ctor = plain.constructor as new (n: number) => Plain;
  const padded = sameShape(blockShape, chunkShape)
    ? plain
    : place(plain, blockShape, chunkShape, new Ctor(chunkSize).fill(stored(numericFill)));
  const view = padded as unknown as ArrayBufferView;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
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

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.every((s, i) => s === b[i]);
}

/** `block` (row-major `blockShape`) copied to the start of `chunk` (row-major `chunkShape`), run by run along the last dim. */
function place<T extends Plain | string[]>(
  block: T,
  blockShape: readonly number[],
  chunkShape: readonly number[],
  chunk: T,
): T {
  if (sameShape(blockShape, chunkShape)) return block;
  const rank = blockShape.length;
  const run = rank === 0 ? 1 : blockShape[rank - 1]!;
  const runs = run === 0 ? 0 : block.length / run;
  const index = new Array<number>(Math.max(rank - 1, 0)).fill(0);
  for (let r = 0; r < runs; r++) {
    let at = 0;
    for (let d = 0; d < rank - 1; d++) at = (at + index[d]!) * chunkShape[d + 1]!;
    if (Array.isArray(block)) for (let i = 0; i < run; i++) (chunk as string[])[at + i] = block[r * run + i]!;
    else (chunk as Plain).set((block as Plain).subarray(r * run, (r + 1) * run), at);
    for (let d = rank - 2; d >= 0; d--) {
      if (++index[d]! < blockShape[d]!) break;
      index[d] = 0;
    }
  }
  return chunk;
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
