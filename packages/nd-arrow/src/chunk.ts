/**
 * Chunking a batch along named dims into complete batches, and assembling
 * the chunks back (README, API). Each chunk records where it starts in a
 * `chunk_offset` global attribute.
 */
import { DataType } from "apache-arrow";
import { attr } from "./attrs.js";
import type { Attr, Attrs } from "./attrs.js";
import { NdRecordBatch } from "./batch.js";
import { sameType } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { NdArray } from "./ndarray.js";
import type { Dim } from "./ndarray.js";
import { rowMajorStrides, sameValues, scatterStrided, takeStrided } from "./take.js";

/** The global attribute that holds a chunk's start index along each grid dim, in grid order. */
export const CHUNK_OFFSET = "chunk_offset";

/**
 * `batch` cut into complete batches of at most `sizes[dim]` along each named
 * dim (the last chunk along a dim may be smaller), in row-major order over
 * the chunk indices. Each chunk has the batch's global attributes plus
 * `chunk_offset` (`List<UInt32>`: its start along every grid dim, in grid
 * order). An array that no chunk cuts (it lacks the chunked dims, or a
 * chunk spans them whole) is the same `NdArray` in every chunk; others are
 * copied with block copies along their contiguous runs.
 *
 * Throws `InvalidArgument` for a dim that is not in the grid, a size that is
 * not an integer >= 1, or a batch that already has a `chunk_offset`.
 *
 * @example
 * const chunks = chunk(batch, { time: 1, lat: 90 }); // 4 * 2 chunks of a 4 x 180 x 360 grid
 * chunks[1].globalAttr("chunk_offset");             // [0, 90, 0]
 */
export function chunk(batch: NdRecordBatch, sizes: Readonly<Record<string, number>>): NdRecordBatch[] {
  const grid = batch.grid();
  const names = grid.map((d) => d.name);
  for (const [name, size] of Object.entries(sizes)) {
    if (!names.includes(name)) {
      throw new NdArrowError("InvalidArgument", `cannot chunk along "${name}": the grid has dims [${names.join(", ")}]`);
    }
    if (!Number.isInteger(size) || size < 1) {
      throw new NdArrowError("InvalidArgument", `chunk size along "${name}" is ${size}, expected an integer >= 1`);
    }
  }
  if (batch.globalAttrs.has(CHUNK_OFFSET)) {
    throw new NdArrowError("InvalidArgument", `the batch already has a "${CHUNK_OFFSET}" global attribute; assemble it first`);
  }
  const steps = grid.map((d) => (Object.hasOwn(sizes, d.name) ? sizes[d.name]! : Math.max(d.size, 1)));
  const counts = grid.map((d, i) => Math.max(1, Math.ceil(d.size / steps[i]!)));
  const total = counts.reduce((n, c) => n * c, 1);
  const position = new Map(names.map((name, i) => [name, i]));
  const out: NdRecordBatch[] = [];
  for (let c = 0; c < total; c++) {
    const starts = new Array<number>(grid.length);
    for (let d = grid.length - 1, rest = c; d >= 0; d--) {
      starts[d] = (rest % counts[d]!) * steps[d]!;
      rest = Math.floor(rest / counts[d]!);
    }
    const extents = grid.map((dim, d) => Math.min(steps[d]!, dim.size - starts[d]!));
    const arrays = batch
      .arrays()
      .map(([name, array]) => [name, slab(array, array.dims.map((dim) => position.get(dim.name)!), starts, extents)] as const);
    const globalAttrs = new Map<string, Attr>(batch.globalAttrs);
    globalAttrs.set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(starts)));
    out.push(new NdRecordBatch(arrays, globalAttrs));
  }
  return out;
}

/** The part of `array` at `starts` / `extents` (grid order; `at` maps the array's dims to grid dims). */
function slab(array: NdArray, at: readonly number[], starts: readonly number[], extents: readonly number[]): NdArray {
  const shape = at.map((g) => extents[g]!);
  if (shape.every((size, i) => size === array.dims[i]!.size)) return array;
  const strides = rowMajorStrides(array.shape);
  const base = at.reduce((sum, g, i) => sum + starts[g]! * strides[i]!, 0);
  const dims = array.dims.map((d, i) => ({ name: d.name, size: shape[i]! }));
  return new NdArray(takeStrided(array.values, shape, strides, base), dims, array.attrs, array.metadata);
}

/**
 * The batch that `chunks` (made by {@link chunk}, in any order) were cut
 * from: each chunk's `chunk_offset` places it on the grid. The result has
 * the chunks' global attributes without `chunk_offset`.
 *
 * Throws `ChunkMismatch`, naming the chunk index and the problem, when there
 * are no chunks, a chunk lacks a valid `chunk_offset`, the chunks leave a
 * gap or overlap, or they disagree on grid dims, array names, types, dims,
 * attributes, global attributes, or the values of an array they all hold
 * whole.
 *
 * @example
 * assemble(chunk(batch, { time: 1 })); // equal to batch
 */
export function assemble(chunks: Iterable<NdRecordBatch>): NdRecordBatch {
  const list = [...chunks];
  const first = list[0];
  if (first === undefined) throw mismatch("there are no chunks to assemble");
  const grid = first.grid();
  const names = grid.map((d) => d.name);
  const starts = list.map((c, i) => {
    const dims = c.grid().map((d) => d.name);
    if (dims.join("\u0000") !== names.join("\u0000")) {
      throw mismatch(`chunk ${i} has grid dims [${dims.join(", ")}], chunk 0 has [${names.join(", ")}]`);
    }
    return chunkOffset(c, i, names);
  });
  const extents = list.map((c) => c.grid().map((d) => d.size));
  const full = names.map((_, d) => Math.max(...list.map((_, i) => starts[i]![d]! + extents[i]![d]!)));
  checkTiling(names, full, starts, extents);
  const globalAttrs = withoutOffset(first.globalAttrs);
  list.forEach((c, i) => {
    const problem = attrsDiffer(globalAttrs, withoutOffset(c.globalAttrs));
    if (problem !== undefined) throw mismatch(`chunk ${i}: global attribute ${problem} differs from chunk 0`);
    const extra = c.names().find((name) => !first.has(name));
    if (extra !== undefined) throw mismatch(`chunk ${i} has array "${extra}", chunk 0 does not`, extra);
  });
  const position = new Map(names.map((name, i) => [name, i]));
  const arrays = first.names().map((name) => [name, assembleArray(name, list, starts, full, position)] as const);
  return new NdRecordBatch(arrays, globalAttrs);
}

function mismatch(message: string, column?: string): NdArrowError {
  return new NdArrowError("ChunkMismatch", message, { column });
}

/** The `chunk_offset` of chunk `i`, checked: a list of non-negative integers, one per grid dim. */
function chunkOffset(c: NdRecordBatch, i: number, names: readonly string[]): number[] {
  const offset = c.globalAttrs.get(CHUNK_OFFSET);
  if (offset === undefined) throw mismatch(`chunk ${i} has no "${CHUNK_OFFSET}" global attribute`);
  if (!offset.isList || !DataType.isInt(offset.itemType) || offset.value.nullCount > 0) {
    throw mismatch(`chunk ${i}: "${CHUNK_OFFSET}" is ${offset.type}, expected a List<UInt32> without nulls`);
  }
  const values = Array.from(offset.value as Iterable<number | bigint>, Number);
  if (values.length !== names.length || values.some((v) => !Number.isSafeInteger(v) || v < 0)) {
    throw mismatch(
      `chunk ${i}: "${CHUNK_OFFSET}" is [${values.join(", ")}], ` +
        `expected ${names.length} non-negative starts for dims [${names.join(", ")}]`,
    );
  }
  return values;
}

/** Rejects overlapping chunks and gaps: no two boxes share a cell, and together they fill the grid. */
function checkTiling(names: readonly string[], full: readonly number[], starts: number[][], extents: number[][]): void {
  const where = (i: number) => `[${starts[i]!.join(", ")}] (size [${extents[i]!.join(", ")}])`;
  let covered = 0;
  for (let j = 0; j < starts.length; j++) {
    const ext = extents[j]!;
    covered += ext.reduce((n, e) => n * e, 1);
    for (let i = 0; i < j; i++) {
      const overlaps = names.every(
        (_, d) => starts[i]![d]! < starts[j]![d]! + ext[d]! && starts[j]![d]! < starts[i]![d]! + extents[i]![d]!,
      );
      if (overlaps) throw mismatch(`chunk ${j} at ${where(j)} overlaps chunk ${i} at ${where(i)}`);
    }
  }
  const cells = full.reduce((n, s) => n * s, 1);
  if (covered < cells) {
    const cell = findGap(full, starts, extents);
    const at = cell === undefined ? "" : `: no chunk covers cell [${cell.join(", ")}]`;
    throw mismatch(`the chunks cover ${covered} of ${cells} cells of the grid [${names.join(", ")}]${at}`);
  }
}

/** One uncovered cell: the first, in row-major order, among cells whose coordinates are 0 or a chunk edge. */
function findGap(full: readonly number[], starts: number[][], extents: number[][]): number[] | undefined {
  const candidates = full.map((size, d) => {
    const edges = new Set<number>([0]);
    starts.forEach((s, i) => {
      edges.add(s[d]!);
      edges.add(s[d]! + extents[i]![d]!);
    });
    return [...edges].filter((e) => e < size).sort((a, b) => a - b);
  });
  const total = candidates.reduce((n, c) => n * c.length, 1);
  for (let k = 0; k < Math.min(total, 100_000); k++) {
    const cell = new Array<number>(full.length);
    for (let d = full.length - 1, rest = k; d >= 0; d--) {
      cell[d] = candidates[d]![rest % candidates[d]!.length]!;
      rest = Math.floor(rest / candidates[d]!.length);
    }
    const inside = starts.some((s, i) => cell.every((x, d) => x >= s[d]! && x < s[d]! + extents[i]![d]!));
    if (!inside) return cell;
  }
  return undefined;
}

function withoutOffset(attrs: Attrs): Map<string, Attr> {
  const out = new Map(attrs);
  out.delete(CHUNK_OFFSET);
  return out;
}

/** A description of the first difference between two attribute sets, or `undefined` when equal. */
function attrsDiffer(a: Attrs, b: Attrs): string | undefined {
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if (x === undefined || y === undefined) return `"${key}" (present in only one)`;
    if (!sameType(x.type, y.type) || !sameValues(x.value, y.value)) {
      return `"${key}" (${x.type} ${String(x.toJS())} vs ${y.type} ${String(y.toJS())})`;
    }
  }
  return undefined;
}

/**
 * One array of the assembled batch: pieces from the chunks, one per distinct
 * start along the array's own dims (repeats must agree), gathered into place.
 */
function assembleArray(
  name: string,
  list: readonly NdRecordBatch[],
  starts: readonly number[][],
  full: readonly number[],
  position: ReadonlyMap<string, number>,
): NdArray {
  const parts = list.map((c, i) => {
    const part = c.get(name);
    if (part === undefined) throw mismatch(`chunk ${i} lacks array "${name}"`, name);
    return part;
  });
  const model = parts[0]!;
  const at = model.dims.map((d) => position.get(d.name)!);
  const dims: Dim[] = model.dims.map((d, k) => ({ name: d.name, size: full[at[k]!]! }));
  const pieces = new Map<string, { chunk: number; array: NdArray }>();
  parts.forEach((part, i) => {
    if (part.dimNames.join("\u0000") !== model.dimNames.join("\u0000")) {
      throw mismatch(`chunk ${i}: array has dims [${part.dimNames.join(", ")}], chunk 0 has [${model.dimNames.join(", ")}]`, name);
    }
    if (!sameType(part.type, model.type)) throw mismatch(`chunk ${i}: array is ${part.type}, chunk 0 has ${model.type}`, name);
    const problem = attrsDiffer(model.attrs, part.attrs);
    if (problem !== undefined) throw mismatch(`chunk ${i}: attribute ${problem} differs from chunk 0`, name);
    const key = at.map((g) => starts[i]![g]).join(",");
    const seen = pieces.get(key);
    if (seen === undefined) pieces.set(key, { chunk: i, array: part });
    else if (!sameValues(seen.array.values, part.values)) {
      throw mismatch(
        `chunk ${i} holds other values than chunk ${seen.chunk} for the same part of the array ` +
          "(it lacks a chunked dim, so they must agree)",
        name,
      );
    }
  });
  if (pieces.size === 1) {
    const only = pieces.values().next().value!.array;
    if (only.dims.every((d, k) => d.size === dims[k]!.size)) return only;
  }
  const strides = rowMajorStrides(dims.map((d) => d.size));
  const placed = [...pieces.values()].map(({ chunk: i, array }) => ({
    values: array.values,
    sizes: array.shape,
    start: at.reduce((sum, g, k) => sum + starts[i]![g]! * strides[k]!, 0),
  }));
  const length = dims.reduce((n, d) => n * d.size, 1);
  return new NdArray(scatterStrided(placed, strides, length), dims, model.attrs, model.metadata);
}
