/**
 * Assembling chunks (made by `chunk`, or read back from a table) into one
 * batch, or into the cells of a window of their grid: each chunk's
 * `chunk_offset` places it on the grid (FORMAT.md "Data model").
 */
import { DataType, makeVector } from "apache-arrow";
import { attr } from "./attrs.js";
import type { Attr, Attrs } from "./attrs.js";
import { NdRecordBatch } from "./batch.js";
import { CHUNK_OFFSET } from "./chunk.js";
import { sameType } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { NdArray } from "./ndarray.js";
import type { Dim } from "./ndarray.js";
import { sameValues } from "./same-values.js";
import { rowMajorStrides, scatterStrided, type StridedPart } from "./strided.js";
import { tilingProblem } from "./tiling.js";
import { nullData } from "./value-buffers.js";
import { resolveWindow, type Window } from "./window.js";

/** Options of {@link assemble}. */
export interface AssembleOptions {
  /**
   * Only these cells, per grid dim `[start, stop)` in grid indices (the
   * `chunk_offset` frame); dims not named span the chunks whole. Chunks that
   * miss the window are skipped; the chunks must cover the window.
   */
  window?: Window;
}

/**
 * The batch that `chunks` (made by {@link chunk}, in any order) were cut
 * from: each chunk's `chunk_offset` places it on the grid. The chunks need
 * not start at cell 0 (e.g. the chunks that a window touches): the result
 * spans the box from the smallest start to the largest end, or `window`.
 * Only the window's cells are copied, in one strided copy per array on the
 * Arrow buffers (nulls kept, every value type of FORMAT.md "Types"). The
 * result has the chunks' global attributes; its `chunk_offset` is the
 * box's start when that is not cell 0 (so the result is itself a chunk),
 * and absent otherwise.
 *
 * Throws `ChunkMismatch`, naming the chunk index and the problem, when there
 * are no chunks, a chunk lacks a valid `chunk_offset`, chunks overlap or
 * leave a gap in the result, or they disagree on grid dims, array names,
 * types, dims, attributes, global attributes, or the values of a piece of
 * an array lacking a dim that several chunks hold (same start and size
 * along its dims; chunks cut at different places hold other pieces, and
 * the result takes them from the chunks at the box's first cell along the
 * dims it lacks); `DimNotFound` for a window naming an unknown dim,
 * `InvalidArgument` for one reaching outside the chunks.
 *
 * @example
 * assemble(chunk(batch, { time: 1 }));                             // equal to batch
 * assemble(chunk(batch, { time: 1 }), { window: { time: [2, 3] } }); // time step 2, chunk_offset [2, 0, 0]
 */
export function assemble(chunks: Iterable<NdRecordBatch>, options: AssembleOptions = {}): NdRecordBatch {
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
  const extent = names.map((name, d) => {
    const start = Math.min(...starts.map((s) => s[d]!));
    return { name, start, size: Math.max(...list.map((_, i) => starts[i]![d]! + extents[i]![d]!)) - start };
  });
  const box = resolveWindow(options.window ?? {}, extent, "the chunks");
  checkTiling(names, box, starts, extents);
  const globalAttrs = withoutOffset(first.globalAttrs);
  list.forEach((c, i) => {
    const problem = attrsDiffer(globalAttrs, withoutOffset(c.globalAttrs));
    if (problem !== undefined) throw mismatch(`chunk ${i}: global attribute ${problem} differs from chunk 0`);
    const extra = c.names().find((name) => !first.has(name));
    if (extra !== undefined) throw mismatch(`chunk ${i} has array "${extra}", chunk 0 does not`, extra);
  });
  if (box.some(([a]) => a !== 0)) globalAttrs.set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(box, ([a]) => a)));
  const position = new Map(names.map((name, i) => [name, i]));
  const arrays = first
    .names()
    .map((name) => [name, assembleArray(name, list, starts, extents, box, position)] as const);
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

/** Rejects overlapping chunks and gaps: no two boxes share a cell, and together they fill `box`. */
function checkTiling(
  names: readonly string[],
  box: readonly [number, number][],
  starts: number[][],
  extents: number[][],
): void {
  const problem = tilingProblem(box, starts, extents);
  if (problem === undefined) return;
  const where = (i: number) => `[${starts[i]!.join(", ")}] (size [${extents[i]!.join(", ")}])`;
  if (problem.kind === "overlap") {
    const [i, j] = problem.boxes;
    throw mismatch(`chunk ${j} at ${where(j)} overlaps chunk ${i} at ${where(i)}`);
  }
  const at = problem.cell === undefined ? "" : `: no chunk covers cell [${problem.cell.join(", ")}]`;
  const span = box.map(([a, b], d) => `${names[d]} ${a}:${b}`).join(", ");
  throw mismatch(`the chunks cover ${problem.covered} of the ${problem.cells} cells of [${span}]${at}`);
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
 * One array of the result: the pieces of the chunks at the box's first cell
 * along the grid dims the array lacks (the chunks tile the box, so these
 * tile it along the array's own dims, however the other chunks are cut),
 * each cut to the box and copied into place in one strided copy. Pieces
 * that repeat one of them (same start and size along the array's dims)
 * must agree.
 */
function assembleArray(
  name: string,
  list: readonly NdRecordBatch[],
  starts: readonly number[][],
  extents: readonly number[][],
  box: readonly [number, number][],
  position: ReadonlyMap<string, number>,
): NdArray {
  const parts = list.map((c, i) => {
    const part = c.get(name);
    if (part === undefined) throw mismatch(`chunk ${i} lacks array "${name}"`, name);
    return part;
  });
  const model = parts[0]!;
  const at = model.dims.map((d) => position.get(d.name)!);
  const bounds = at.map((g) => box[g]!);
  const dims: Dim[] = model.dims.map((d, k) => ({ name: d.name, size: bounds[k]![1] - bounds[k]![0] }));
  const pieces = new Map<string, { chunk: number; array: NdArray }>();
  parts.forEach((part, i) => {
    if (part.dimNames.join("\u0000") !== model.dimNames.join("\u0000")) {
      throw mismatch(
        `chunk ${i}: array has dims [${part.dimNames.join(", ")}], chunk 0 has [${model.dimNames.join(", ")}]`,
        name,
      );
    }
    if (!sameType(part.type, model.type))
      throw mismatch(`chunk ${i}: array is ${part.type}, chunk 0 has ${model.type}`, name);
    const problem = attrsDiffer(model.attrs, part.attrs);
    if (problem !== undefined) throw mismatch(`chunk ${i}: attribute ${problem} differs from chunk 0`, name);
    const key = at.map((g, k) => `${starts[i]![g]}+${part.dims[k]!.size}`).join(",");
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
  // The box's first cell along each dim the array lacks (its last cell for a box empty at the end); along a
  // dim the chunks hold no cell of (size 0), every chunk at its start stands in.
  const lacked = box.flatMap(([first], g) => {
    if (at.includes(g)) return [];
    const low = Math.min(...starts.map((s) => s[g]!));
    const high = Math.max(...starts.map((s, j) => s[g]! + extents[j]![g]!));
    return [{ g, cell: Math.max(low, Math.min(first, high - 1)), empty: high === low }];
  });
  const corner = (i: number) =>
    lacked.every(({ g, cell, empty }) =>
      empty ? starts[i]![g]! === cell : starts[i]![g]! <= cell && cell < starts[i]![g]! + extents[i]![g]!,
    );
  const strides = rowMajorStrides(dims.map((d) => d.size));
  const placed: StridedPart[] = [];
  for (const [i, array] of parts.entries()) {
    if (!corner(i)) continue;
    const from = at.map((g, k) => Math.max(bounds[k]![0], starts[i]![g]!));
    const to = at.map((g, k) => Math.min(bounds[k]![1], starts[i]![g]! + array.dims[k]!.size));
    if (from.some((a, k) => a >= to[k]!)) continue;
    if (array.dims.every((d, k) => starts[i]![at[k]!] === bounds[k]![0] && d.size === dims[k]!.size)) return array;
    const source = rowMajorStrides(array.shape);
    placed.push({
      values: array.values,
      sizes: from.map((a, k) => to[k]! - a),
      start: from.reduce((sum, a, k) => sum + (a - bounds[k]![0]) * strides[k]!, 0),
      sourceStart: from.reduce((sum, a, k) => sum + (a - starts[i]![at[k]!]!) * source[k]!, 0),
      sourceStrides: source,
    });
  }
  const length = dims.reduce((n, d) => n * d.size, 1);
  const values = length === 0 ? makeVector(nullData(model.type, 0)) : scatterStrided(placed, strides, length);
  return new NdArray(values, dims, model.attrs, model.metadata);
}
