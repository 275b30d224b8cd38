/**
 * NdArray: one named-dimension array (FORMAT.md section 1): flat row-major values,
 * ordered named dims, ordered attributes.
 */
import { Type } from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import { NdArrowError } from "./errors.js";
import { isSupportedValueType } from "./schema.js";
import { toAttrs } from "./attrs.js";
import type { Attrs, AttrsInput } from "./attrs.js";
import { isFloat16 } from "./data-type.js";
import type { TypedArray } from "./data-type.js";
import { toVector } from "./values.js";
import type { ValuesInput } from "./values.js";

/** One named dimension. */
export interface Dim {
  readonly name: string;
  readonly size: number;
}

/** Dims as callers may write them: `{ time: 4, lat: 180 }`, `[["time", 4]]` or `[{ name, size }]`. */
export type DimsInput = Readonly<Record<string, number>> | readonly (readonly [string, number])[] | readonly Dim[];

/** Options of {@link NdArray.from}. */
export interface NdArrayOptions<T extends DataType = DataType> {
  /** The dims, in order. Default: one dim `dim_0` of the values' length. */
  dims?: DimsInput;
  /** The attributes, in order. */
  attrs?: AttrsInput;
  /** The value type; default: implied by the values (see `toVector`). */
  type?: T;
  /** Arrow field metadata of the array's column, kept by encode/decode. */
  metadata?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

const MAX_DIM_SIZE = 2 ** 32 - 1;

/**
 * A named-dimension array. Values are a flat Arrow vector in row-major order
 * (the last dim varies fastest); a rank-0 array (no dims) is a scalar. `T`
 * is the value type, as in Arrow's `Vector<T>`: an `NdArray<Float32>` has
 * `values: Vector<Float32>`, whose `toArray()` is a `Float32Array`.
 *
 * @example
 * const sst = NdArray.from(new Float32Array(2 * 3), {
 *   dims: { lat: 2, lon: 3 },
 *   attrs: { units: "K" },
 * });
 * sst.shape;        // [2, 3]
 * sst.attr("units"); // "K"
 */
export class NdArray<T extends DataType = DataType> {
  /** The values, flat, row-major. */
  readonly values: Vector<T>;
  /** The dims, in order. */
  readonly dims: readonly Dim[];
  /** The attributes, in order. */
  readonly attrs: Attrs;
  /** Arrow field metadata of the array's column (the user's; no extension keys). */
  readonly metadata: ReadonlyMap<string, string>;

  /**
   * Validates and wraps. Throws `InvalidDims` (empty or duplicate names,
   * sizes not integers in 0..2^32-1), `InvalidShape` (values length is not
   * the product of the sizes) or `UnsupportedType`.
   */
  constructor(
    values: Vector<T>,
    dims: readonly Dim[],
    attrs: Attrs = new Map(),
    metadata: ReadonlyMap<string, string> = new Map(),
  ) {
    if (!isSupportedValueType(values.type)) {
      throw new NdArrowError("UnsupportedType", `unsupported value type ${values.type}`);
    }
    this.dims = checkedDims.has(dims) ? dims : frozenCheckedDims(dims);
    const size = this.dims.reduce((n, d) => n * d.size, 1);
    if (values.length !== size) {
      throw new NdArrowError(
        "InvalidShape",
        `${values.length} values do not fill shape [${this.dims.map((d) => d.size).join(", ")}] (${size} values)`,
      );
    }
    this.values = values;
    this.attrs = attrs;
    this.metadata = metadata;
  }

  /**
   * Builds an array from a typed array (no copy when it is the storage of the
   * type), a JS array (nulls allowed) or an Arrow vector.
   *
   * @example
   * NdArray.from([1, 2, null], { dims: { x: 3 }, type: new Int32() });
   */
  static from<T extends DataType = DataType>(values: ValuesInput, options: NdArrayOptions<T> = {}): NdArray<T> {
    const vector = toVector(values, options.type) as Vector<T>;
    const dims = options.dims === undefined ? [{ name: "dim_0", size: vector.length }] : toDims(options.dims);
    return new NdArray(vector, dims, toAttrs(options.attrs), toMetadata(options.metadata));
  }

  /**
   * A rank-0 array holding one value (`null` for a null scalar, which needs
   * `options.type`).
   *
   * @example
   * NdArray.scalar(273.15, { attrs: { units: "K" } });
   */
  static scalar<T extends DataType = DataType>(
    value: unknown,
    options: Omit<NdArrayOptions<T>, "dims"> = {},
  ): NdArray<T> {
    return NdArray.from<T>([value], { ...options, dims: [] });
  }

  /** The sizes of the dims. */
  get shape(): number[] {
    return this.dims.map((d) => d.size);
  }

  /** The value type. */
  get type(): T {
    return this.values.type;
  }

  /** The number of dims (0 for a scalar). */
  get rank(): number {
    return this.dims.length;
  }

  /** The number of values. */
  get size(): number {
    return this.values.length;
  }

  /** The names of the dims, in order. */
  get dimNames(): string[] {
    return this.dims.map((d) => d.name);
  }

  /** The JS value of attribute `key` (see `Attr.toJS`), or `undefined`. */
  attr(key: string): unknown {
    return this.attrs.get(key)?.toJS();
  }

  /**
   * The values as JS: a typed array for integer and float types without
   * nulls (Float16 as Float32Array), otherwise a JS array with `null`s.
   * (`values.toArray()` is Arrow's: typed by `T`, whatever the nulls.)
   */
  toArray(): TypedArray | unknown[] {
    const { values } = this;
    const numeric = values.type.typeId === Type.Int || values.type.typeId === Type.Float;
    if (!numeric || values.nullCount > 0) return Array.from(values);
    if (isFloat16(values.type)) return Float32Array.from(values as Iterable<number>);
    return values.toArray() as TypedArray;
  }

  /** The same values and dims with other attributes. */
  withAttrs(attrs: AttrsInput): NdArray<T> {
    return new NdArray(this.values, this.dims, toAttrs(attrs), this.metadata);
  }

  /** The same dims, attributes and metadata with other values (e.g. cast ones). */
  withValues<U extends DataType>(values: Vector<U>): NdArray<U> {
    return new NdArray(values, this.dims, this.attrs, this.metadata);
  }

  /** The same array with other column metadata. */
  withMetadata(metadata: ReadonlyMap<string, string> | Readonly<Record<string, string>>): NdArray<T> {
    return new NdArray(this.values, this.dims, this.attrs, toMetadata(metadata));
  }
}

/** Normalises the accepted dims notations to `Dim[]` (no validation). */
export function toDims(input: DimsInput): Dim[] {
  if (!Array.isArray(input))
    return Object.entries(input as Record<string, number>).map(([name, size]) => ({ name, size }));
  return (input as readonly (readonly [string, number] | Dim)[]).map((d) =>
    Array.isArray(d) ? { name: d[0] as string, size: d[1] as number } : (d as Dim),
  );
}

/**
 * Dims arrays that {@link frozenCheckedDims} made: frozen and checked, so an
 * array built on one again skips both (the decoder shares one dims array
 * across the rows of a column whose dims repeat).
 */
const checkedDims = new WeakSet<readonly Dim[]>();

function frozenCheckedDims(dims: readonly Dim[]): readonly Dim[] {
  const frozen = Object.freeze(dims.map(({ name, size }) => Object.freeze({ name, size })));
  checkDims(frozen);
  checkedDims.add(frozen);
  return frozen;
}

/** Checks dim names (non-empty, unique) and sizes (integers 0..2^32-1); throws `InvalidDims`. */
export function checkDims(dims: readonly Dim[]): void {
  const seen = new Set<string>();
  for (const { name, size } of dims) {
    if (typeof name !== "string" || name === "")
      throw new NdArrowError("InvalidDims", "dim names must be non-empty strings");
    if (seen.has(name)) throw new NdArrowError("InvalidDims", `duplicate dim name "${name}"`);
    seen.add(name);
    if (!Number.isInteger(size) || size < 0 || size > MAX_DIM_SIZE) {
      throw new NdArrowError("InvalidDims", `dim "${name}" has size ${size}, expected an integer from 0 to 2^32-1`);
    }
  }
}

function toMetadata(input: NdArrayOptions["metadata"]): ReadonlyMap<string, string> {
  if (input === undefined) return new Map();
  return input instanceof Map ? new Map(input) : new Map(Object.entries(input));
}
