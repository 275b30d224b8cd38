/**
 * The chunks of one array being written (README "Writing"): each row's
 * block goes into the chunks it covers. A chunk the block fills whole is
 * written as is; a chunk it covers in part starts as the fill value and
 * later blocks are written into it (read back, decoded, overlaid, encoded
 * again), so rows need not sit on the chunk grid nor come in order, and
 * nothing is buffered but one chunk. Cells written twice (a coordinate that
 * every row repeats) must hold the same values.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { contains, copyBox, intersect, sameBox } from "./chunk-box.js";
import type { Box } from "./chunk-box.js";
import { chunkFromBytes, chunkToBytes, filledChunk } from "./chunk-bytes.js";
import type { Block, ChunkCodec, ChunkValues } from "./chunk-bytes.js";
import { chunkKey } from "./metadata-docs.js";
import type { WrittenArray } from "./metadata-docs.js";
import type { StoreWriter } from "./store-files.js";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** Where chunk files go and how they are encoded. */
export interface ChunkSink {
  readonly version: 2 | 3;
  readonly writer: StoreWriter;
  readonly codec: ChunkCodec;
}

/** One array's chunk grid and the cells written so far. */
export class ChunkPlacer {
  /** The array's metadata (its `shape` is the extent written so far, see {@link ChunkPlacer.ends}). */
  readonly array: WrittenArray;
  /** The end of the written cells along each dim: the array's shape once every row is in. */
  readonly ends: number[];
  readonly #sink: ChunkSink;
  readonly #where: ZarrErrorContext;
  /** Per chunk key, the boxes (chunk-local) written into it. */
  readonly #written = new Map<string, Box[]>();
  /** Arrays placed already, with their offset: the same NdArray again (a coordinate every row shares) is skipped. */
  readonly #placed = new WeakMap<NdArray, string>();

  constructor(array: WrittenArray, sink: ChunkSink, where: ZarrErrorContext) {
    this.array = array;
    this.ends = array.shape.map(() => 0);
    this.#sink = sink;
    this.#where = where;
  }

  /**
   * Writes `block` (the values of `source`, row-major `shape`) at `offset`
   * into every chunk it covers. `row` numbers the row for errors. Returns
   * the number of new chunk files.
   */
  async place(source: NdArray, block: Block, shape: readonly number[], offset: readonly number[], row: number) {
    const placement = offset.join(",");
    if (this.#placed.get(source) === placement) return 0;
    const { chunkShape } = this.array;
    shape.forEach((size, d) => {
      this.ends[d] = Math.max(this.ends[d]!, offset[d]! + size);
    });
    const first = offset.map((o, d) => Math.floor(o / chunkShape[d]!));
    const last = offset.map((o, d) => Math.floor((o + shape[d]! - 1) / chunkShape[d]!));
    const whole = { start: offset, size: shape };
    let created = 0;
    for (const index of indices(first, last)) {
      const origin = index.map((i, d) => i * chunkShape[d]!);
      const cells = intersect(whole, { start: origin, size: chunkShape })!;
      const local = { start: cells.start.map((s, d) => s - origin[d]!), size: cells.size };
      const from = cells.start.map((s, d) => s - offset[d]!);
      if (await this.#put(index, block, shape, from, local, row)) created++;
    }
    this.#placed.set(source, placement);
    return created;
  }

  /** Puts the cells `from` of the block into box `local` of chunk `index`; true when the chunk file is new. */
  async #put(
    index: readonly number[],
    block: Block,
    shape: readonly number[],
    from: readonly number[],
    local: Box,
    row: number,
  ): Promise<boolean> {
    const { chunkShape } = this.array;
    const key = `${this.array.name}/${chunkKey(this.#sink.version, index)}`;
    const boxes = this.#written.get(key);
    if (boxes === undefined) {
      let chunk = block.values;
      if (!shape.every((s, d) => s === chunkShape[d] && local.size[d] === s)) {
        chunk = filledChunk(
          block,
          chunkShape.reduce((n, s) => n * s, 1),
        );
        copyBox(block.values, shape, from, chunk, chunkShape, local.start, local.size);
      }
      await this.#write(key, chunk);
      this.#written.set(key, [local]);
      return true;
    }
    const { writer, codec } = this.#sink;
    const before = chunkFromBytes(await codec.decode(await writer.read(key)), block.values, this.array.type);
    for (const done of boxes) {
      const shared = intersect(done, local);
      if (shared === undefined) continue;
      const at = shared.start.map((s, d) => s - local.start[d]! + from[d]!);
      if (!sameBox(block.values, shape, at, before, chunkShape, shared.start, shared.size)) {
        throw new ZarrError(
          "InvalidArgument",
          `row ${row} has other values for chunk [${index.join(", ")}] than an earlier row (rows of several datasets? select one id)`,
          this.#where,
        );
      }
    }
    if (boxes.some((done) => contains(done, local))) return false;
    copyBox(block.values, shape, from, before, chunkShape, local.start, local.size);
    boxes.push(local);
    await this.#write(key, before);
    return false;
  }

  async #write(key: string, chunk: ChunkValues): Promise<void> {
    await this.#sink.writer.write(key, await this.#sink.codec.encode(chunkToBytes(chunk, this.array.type)));
  }
}

/** Every index tuple from `first` to `last` (inclusive) in C order; one empty tuple for rank 0, none when empty. */
function* indices(first: readonly number[], last: readonly number[]): Generator<number[]> {
  if (first.some((f, d) => f > last[d]!)) return;
  const index = [...first];
  for (;;) {
    yield [...index];
    let d = index.length - 1;
    for (; d >= 0; d--) {
      if (++index[d]! <= last[d]!) break;
      index[d] = first[d]!;
    }
    if (d < 0) return;
  }
}
