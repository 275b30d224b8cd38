/**
 * A coordinate variable (the 1-D variable named like its dim) read piece by
 * piece for `sel`: the pieces of the rows that tile the dim
 * (`variable-rows.ts`: rows may be cut at different places), pruned by
 * the rows' stats, the pieces a selection needs taken in one call and kept
 * in the view's {@link CoordinateCache}, so later selections on the same
 * view (and the views derived from it) read none of them again.
 */
import { DataType, Precision, type Float } from "apache-arrow";
import type { Attrs, NdArray } from "@lance-nd/nd-arrow";
import { decodeRows, selectName } from "@lance-nd/format";
import { LanceNdError } from "../errors.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { takeRows } from "../lance/table-read.js";
import { describeRow, type DatasetPlan, type PlannedRow } from "./plan.js";
import { blockRows } from "./variable-rows.js";
import {
  nearestIndex,
  type CoordinateNumber,
  type CoordinateValues,
  type DimRange,
  type SelValue,
} from "./selection.js";
import { coordinateNumber, coordinateText, isInt64 } from "./time.js";

/** A piece of a coordinate as read: its values at their grid indices, and the variable's attributes. */
interface PieceRead {
  values: CoordinateValues;
  attrs: Attrs;
}

/**
 * The coordinate pieces a pinned view has read, by dim and row: shared by a
 * view and every selection made from it (the rows, and so the pieces, are
 * those of one version). Holds at most each coordinate variable once.
 */
export type CoordinateCache = Map<string, Map<PlannedRow, PieceRead>>;

/** One piece of a coordinate: the row holding it, its start and size along the dim, its stats. */
interface Piece {
  row: PlannedRow;
  start: number;
  size: number;
  stats: [number, number] | undefined;
}

/** A coordinate variable within the current range of its dim, read piece by piece (each piece once per view). */
export class Coordinate {
  readonly dim: string;
  readonly uri: string;
  readonly range: DimRange;
  readonly #view: NdTable;
  readonly #type: DataType;
  readonly #pieces: Piece[];
  readonly #read: Map<PlannedRow, PieceRead>;

  /**
   * The coordinate of grid dim `at` of `plan`, within `range`, reading through `cache`.
   *
   * @throws LanceNdError `InvalidInput` when the dim has no coordinate variable or it is not numeric or a time.
   */
  constructor(view: NdTable, plan: DatasetPlan, at: number, range: DimRange, cache: CoordinateCache) {
    const dim = plan.grid[at]!.name;
    const variable = plan.variables.find((v) => v.name === dim && v.dims.length === 1 && v.dims[0] === dim);
    if (variable === undefined) {
      throw new LanceNdError(
        "InvalidInput",
        `sel: "${dim}" has no coordinate variable (a 1-D variable named like the dim); use isel`,
        { uri: view.uri },
      );
    }
    if (
      !DataType.isInt(variable.type) &&
      !DataType.isFloat(variable.type) &&
      !DataType.isTimestamp(variable.type) &&
      !DataType.isDate(variable.type)
    ) {
      throw new LanceNdError(
        "InvalidInput",
        `sel: coordinate "${dim}" is ${variable.type}; sel takes numeric, timestamp or date coordinates`,
        { uri: view.uri },
      );
    }
    this.dim = dim;
    this.uri = view.uri;
    this.#read = cache.get(dim) ?? new Map();
    cache.set(dim, this.#read);
    this.range = range;
    this.#view = view;
    this.#type = variable.type;
    const held = blockRows(
      plan,
      plan.grid.map((d, k) => (k === at ? range : { start: 0, stop: d.size, drop: false })),
      [dim],
    );
    if (!held.covered) {
      const rows = held.lacking.slice(0, 5).map((row) => describeRow(row.rowId, row.id));
      throw new LanceNdError("InvalidInput", `sel: rows ${rows.join(", ")} of the dataset have no "${dim}"`, {
        uri: view.uri,
        column: dim,
      });
    }
    this.#pieces = held.rows
      .filter((row) => row.start[at]! < range.stop && range.start < row.start[at]! + row.size[at]!)
      .map((row) => ({ row, start: row.start[at]!, size: row.size[at]!, stats: row.stats.get(dim) }));
    this.#pieces.sort((a, b) => a.start - b.start);
  }

  /** A bound in the coordinate's units (a Date needs the coordinate's attributes: one piece is read first). */
  async number(value: SelValue): Promise<CoordinateNumber> {
    const attrs =
      value instanceof Date && !DataType.isTimestamp(this.#type) && !DataType.isDate(this.#type)
        ? await this.#attrs()
        : undefined;
    return coordinateNumber(this.uri, this.dim, value, this.#type, attrs);
  }

  /** A value of the coordinate as a message shows it (a time as a date: `coordinateText`). */
  async text(value: CoordinateNumber): Promise<string> {
    const attrs = DataType.isTimestamp(this.#type) || DataType.isDate(this.#type) ? undefined : await this.#attrs();
    return coordinateText(value, this.#type, attrs);
  }

  /**
   * The pieces whose stats pass `keep` (all pieces where a piece has no
   * stats). With `monotonic`, the stats must also show the pieces in order
   * (each piece's values past the previous one's), else all pieces are read.
   */
  pieces(keep: (stats: [number, number] | undefined) => boolean, monotonic: boolean): Piece[] {
    if (this.#pieces.some((p) => p.stats === undefined)) return this.#pieces;
    if (monotonic && !statsInOrder(this.#pieces.map((p) => p.stats!))) return this.#pieces;
    return this.#pieces.filter((p) => keep(p.stats));
  }

  /** The values of `pieces`, inside the current range, in grid order. */
  async values(pieces: readonly Piece[]): Promise<CoordinateValues> {
    await this.#readPieces(pieces);
    const out: CoordinateValues = { indices: [], values: [] };
    for (const piece of pieces) {
      const { values } = this.#read.get(piece.row)!;
      values.indices.forEach((index, k) => {
        if (index >= this.range.start && index < this.range.stop) {
          out.indices.push(index);
          out.values.push(values.values[k]!);
        }
      });
    }
    return out;
  }

  /**
   * The grid index of the value nearest to `x`: pieces read nearest stats
   * first, stopping when no piece can hold a nearer value (on a 64-bit
   * integer coordinate, whose stats are rounded, every piece is read).
   */
  async nearest(x: CoordinateNumber): Promise<number | undefined> {
    if (isInt64(this.#type)) return nearestIndex(await this.values(this.#pieces), x)?.index;
    const near = Number(x);
    const distance = (p: Piece) => (p.stats === undefined ? 0 : Math.max(0, p.stats[0] - near, near - p.stats[1]));
    const order = [...this.#pieces].sort((a, b) => distance(a) - distance(b));
    let best: { index: number; distance: number } | undefined;
    for (const piece of order) {
      if (best !== undefined && distance(piece) > best.distance) break;
      const found = nearestIndex(await this.values([piece]), x);
      if (found === undefined) continue;
      if (
        best === undefined ||
        found.distance < best.distance ||
        (found.distance === best.distance && found.index < best.index)
      )
        best = found;
    }
    return best?.index;
  }

  async #attrs(): Promise<Attrs> {
    await this.#readPieces(this.#pieces.slice(0, 1));
    return this.#read.get(this.#pieces[0]!.row)!.attrs;
  }

  /** Reads the pieces of `pieces` not read yet, in takes of up to {@link PIECES_PER_TAKE} rows. */
  async #readPieces(pieces: readonly Piece[]): Promise<void> {
    const missing = pieces.filter((p) => !this.#read.has(p.row));
    missing.sort((a, b) => (a.row.rowId < b.row.rowId ? -1 : a.row.rowId > b.row.rowId ? 1 : 0));
    for (let first = 0; first < missing.length; first += PIECES_PER_TAKE) {
      const run = missing.slice(first, first + PIECES_PER_TAKE);
      const ids = run.map((p) => p.row.rowId);
      const batches = await takeRows(this.#view.lance, ids, [selectName(this.dim)]);
      const rows = withPureErrors({ uri: this.uri }, () => batches.flatMap((rb) => decodeRows(rb)));
      run.forEach((piece, k) => {
        const array = rows[k]?.get(this.dim);
        if (array === undefined)
          throw new LanceNdError(
            "InvalidInput",
            `sel: ${describeRow(piece.row.rowId, piece.row.id)} of the dataset has no "${this.dim}"`,
            { uri: this.uri, column: this.dim },
          );
        const indices = Array.from({ length: array.size }, (_, i) => piece.start + i);
        this.#read.set(piece.row, { values: { indices, values: numbersOf(array) }, attrs: array.attrs });
      });
    }
  }
}

/** Coordinate pieces (small 1-D rows) taken per SDK call. */
const PIECES_PER_TAKE = 512;

/** True when the pieces' `[min, max]`, in grid order, ascend or descend without overlap. */
function statsInOrder(stats: readonly [number, number][]): boolean {
  let up = true;
  let down = true;
  for (let k = 1; k < stats.length; k++) {
    if (!(stats[k - 1]![1] <= stats[k]![0])) up = false;
    if (!(stats[k - 1]![0] >= stats[k]![1])) down = false;
  }
  return up || down;
}

/**
 * The values of a numeric or time coordinate in its units: bigints for a
 * 64-bit integer coordinate (exact), numbers otherwise; NaN for a null.
 */
function numbersOf(array: NdArray): CoordinateNumber[] {
  const values = array.values;
  const half = DataType.isFloat(values.type) && (values.type as Float).precision === Precision.HALF;
  const exact = isInt64(values.type);
  const raw = values.nullCount === 0 && !half ? (values.toArray() as ArrayLike<number | bigint>) : undefined;
  if (raw !== undefined && ArrayBuffer.isView(raw)) return exact ? Array.from(raw) : Array.from(raw, Number);
  return Array.from(values as Iterable<unknown>, (v) =>
    v === null ? NaN : v instanceof Date ? v.getTime() : exact && typeof v === "bigint" ? v : Number(v),
  );
}
