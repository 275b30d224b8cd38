/**
 * NdRecordBatch: named arrays on one grid plus global attributes (spec
 * section 1).
 */
import { NdArrowError } from "./errors.js";
import { toAttrs } from "./attrs.js";
import type { Attrs, AttrsInput } from "./attrs.js";
import type { Dim, NdArray } from "./ndarray.js";

/** Arrays as callers may pass them: a record, a map or `[name, array]` pairs, in order. */
export type ArraysInput =
  | Readonly<Record<string, NdArray>>
  | ReadonlyMap<string, NdArray>
  | readonly (readonly [string, NdArray])[];

/**
 * An ordered set of named {@link NdArray}s that share one grid, plus global
 * attributes.
 *
 * @example
 * const batch = new NdRecordBatch({ sst, lat, lon }, { id: "a" });
 * batch.grid();       // [{ name: "time", size: 4 }, { name: "lat", ... }, ...]
 * batch.get("sst");   // NdArray
 */
export class NdRecordBatch {
  /** The global attributes, in order. */
  readonly globalAttrs: Attrs;
  readonly #arrays: ReadonlyMap<string, NdArray>;

  /**
   * Validates: names non-empty and unique (`InvalidArgument`), not starting
   * with `__` (`ReservedName`), one size per dim name (`GridMismatch` naming
   * the array, the dim and both sizes).
   */
  constructor(arrays: ArraysInput, globalAttrs?: AttrsInput) {
    const map = new Map<string, NdArray>();
    const entries: Iterable<readonly [string, NdArray]> =
      arrays instanceof Map || Array.isArray(arrays)
        ? (arrays as Iterable<readonly [string, NdArray]>)
        : Object.entries(arrays as Record<string, NdArray>);
    const sizes = new Map<string, { size: number; column: string }>();
    for (const [name, array] of entries) {
      if (typeof name !== "string" || name === "")
        throw new NdArrowError("InvalidArgument", "array names must be non-empty strings");
      if (name.startsWith("__")) {
        throw new NdArrowError("ReservedName", `array names must not start with "__"`, { column: name });
      }
      if (map.has(name)) throw new NdArrowError("InvalidArgument", `duplicate array name`, { column: name });
      for (const { name: dim, size } of array.dims) {
        const seen = sizes.get(dim);
        if (seen === undefined) sizes.set(dim, { size, column: name });
        else if (seen.size !== size) {
          throw new NdArrowError(
            "GridMismatch",
            `dim "${dim}" has size ${size} here but ${seen.size} in array "${seen.column}"`,
            { column: name },
          );
        }
      }
      map.set(name, array);
    }
    this.#arrays = map;
    this.globalAttrs = toAttrs(globalAttrs);
  }

  /** The number of arrays. */
  get numArrays(): number {
    return this.#arrays.size;
  }

  /** The array names, in order. */
  names(): string[] {
    return [...this.#arrays.keys()];
  }

  /** The array called `name`, or `undefined`. */
  get(name: string): NdArray | undefined {
    return this.#arrays.get(name);
  }

  /** True when the batch has an array called `name`. */
  has(name: string): boolean {
    return this.#arrays.has(name);
  }

  /** `[name, array]` pairs, in order. */
  arrays(): [string, NdArray][] {
    return [...this.#arrays.entries()];
  }

  /** The JS value of global attribute `key` (see `Attr.toJS`), or `undefined`. */
  globalAttr(key: string): unknown {
    return this.globalAttrs.get(key)?.toJS();
  }

  /**
   * The grid: the dims of the highest-rank array (ties: the first), then
   * every other dim in order of first appearance.
   */
  grid(): Dim[] {
    let widest: NdArray | undefined;
    for (const array of this.#arrays.values()) if (widest === undefined || array.rank > widest.rank) widest = array;
    const grid = new Map<string, number>();
    for (const { name, size } of widest?.dims ?? []) grid.set(name, size);
    for (const array of this.#arrays.values())
      for (const { name, size } of array.dims) if (!grid.has(name)) grid.set(name, size);
    return [...grid].map(([name, size]) => ({ name, size }));
  }

  /** A batch with only the arrays in `names` (in that order); unknown names are `InvalidArgument`. */
  select(names: readonly string[]): NdRecordBatch {
    return new NdRecordBatch(
      names.map((name) => {
        const array = this.#arrays.get(name);
        if (array === undefined) throw new NdArrowError("InvalidArgument", "no such array", { column: name });
        return [name, array] as const;
      }),
      this.globalAttrs,
    );
  }

  /** A batch with `arrays` added (or replacing same-named ones), same global attributes. */
  withArrays(arrays: ArraysInput): NdRecordBatch {
    const merged = new Map(this.#arrays);
    const entries = arrays instanceof Map || Array.isArray(arrays) ? arrays : Object.entries(arrays);
    for (const [name, array] of entries as Iterable<readonly [string, NdArray]>) merged.set(name, array);
    return new NdRecordBatch(merged, this.globalAttrs);
  }

  /** The same arrays with other global attributes. */
  withGlobalAttrs(globalAttrs: AttrsInput): NdRecordBatch {
    return new NdRecordBatch(this.#arrays, globalAttrs);
  }
}
