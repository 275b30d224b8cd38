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
import type { DatasetPlan } from "./plan.js";
import { describeRow, type PlannedRow } from "./plan-rows.js";
import { blockRows } from "./variable-rows.js";
import { type Direction, type Nearest, nearer, nearestIndex } from "./label-index.js";
import type { CoordinateNumber, CoordinateValues, DimRange, SelValue } from "./selection.js";
import { datePeriod, type DatePeriod, type Resolution, valuesResolution } from "./date-period.js";
import { coordinateNumber, coordinateText, isInt64, isTimeCoordinate } from "./time.js";

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

  /**
   * A text as a period of this time coordinate's calendar (`time.ts`'s
   * `datePeriod`), or undefined when the coordinate is not a time (the
   * text is then a number).
   */
  async period(text: string): Promise<DatePeriod | undefined> {
    const attrs = await this.#unitAttrs();
    if (!isTimeCoordinate(this.#type, attrs)) return undefined;
    return datePeriod(this.uri, this.dim, text, this.#type, attrs);
  }

  /** How fine this time coordinate's values are within the range (reads every piece). */
  async resolution(): Promise<Resolution> {
    const attrs = await this.#unitAttrs();
    const { values } = await this.values(this.#pieces);
    return valuesResolution(this.uri, this.dim, values, this.#type, attrs);
  }

  /**
   * Which way the coordinate runs within the range, from its first and last
   * pieces: their stats when they are apart, else their values (descending
   * when the last value is smaller).
   */
  async direction(): Promise<Direction> {
    const [first, last] = [this.#pieces[0]?.stats, this.#pieces.at(-1)?.stats];
    if (this.#pieces.length > 1 && first !== undefined && last !== undefined) {
      if (last[1] < first[0]) return "descending";
      if (last[0] > first[1]) return "ascending";
    }
    const ends = this.#pieces.length > 1 ? [this.#pieces[0]!, this.#pieces.at(-1)!] : this.#pieces;
    const values = (await this.values(ends)).values.filter((v) => !Number.isNaN(v));
    return values.length > 1 && values.at(-1)! < values[0]! ? "descending" : "ascending";
  }

  /** The smallest and largest values within the range (NaN left out), or undefined when none is left. */
  async span(): Promise<[CoordinateNumber, CoordinateNumber] | undefined> {
    let min: CoordinateNumber | undefined;
    let max: CoordinateNumber | undefined;
    for (const v of (await this.values(this.#pieces)).values) {
      if (Number.isNaN(v)) continue;
      if (min === undefined || v < min) min = v;
      if (max === undefined || v > max) max = v;
    }
    return min === undefined || max === undefined ? undefined : [min, max];
  }

  /** A value of the coordinate as a message shows it (a time as a date: `coordinateText`). */
  async text(value: CoordinateNumber): Promise<string> {
    const attrs = await this.#unitAttrs();
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
   * The value nearest to `x` and its grid index (a tie to the larger value,
   * `label-index.ts`'s `nearer`): pieces read nearest stats first, stopping
   * when no piece can hold a nearer value (on a 64-bit integer coordinate,
   * whose stats are rounded, every piece is read).
   */
  async nearest(x: CoordinateNumber): Promise<Nearest | undefined> {
    if (isInt64(this.#type)) return nearestIndex(await this.values(this.#pieces), x);
    const near = Number(x);
    const distance = (p: Piece) => (p.stats === undefined ? 0 : Math.max(0, p.stats[0] - near, near - p.stats[1]));
    const order = [...this.#pieces].sort((a, b) => distance(a) - distance(b));
    let best: Nearest | undefined;
    for (const piece of order) {
      if (best !== undefined && distance(piece) > best.distance) break;
      const found = nearestIndex(await this.values([piece]), x);
      if (found !== undefined && (best === undefined || nearer(found, best))) best = found;
    }
    return best;
  }

  /** The attributes that hold the units of a numeric coordinate (undefined for a timestamp or date: its type has them). */
  async #unitAttrs(): Promise<Attrs | undefined> {
    return DataType.isTimestamp(this.#type) || DataType.isDate(this.#type) ? undefined : this.#attrs();
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
