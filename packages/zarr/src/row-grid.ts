/**
 * How `chunks()` cuts a store into rows (README "Rows"): by default along
 * the store's own storage grid of the largest variable (nd-arrow's
 * `storageRowSizes`: blocks merged along the slowest dims up to 1 MiB a
 * row, or the store's `rowBytes`; a block up to 8 MiB one row); or by the caller's `{ dim: size }`,
 * other dims whole.
 */
import type { Dim } from "@lance-nd/nd-arrow";
import { ROW_BYTES, largestVariable, storageRowSizes } from "@lance-nd/nd-arrow/internal";
import { ZarrError } from "./zarr-error.js";

/** What the planner needs of one variable. */
export interface GridVariable {
  readonly name: string;
  readonly dims: readonly Dim[];
  /** Bytes per value (an estimate for strings). */
  readonly itemBytes: number;
  /** The storage block: the shard shape of a sharded array (its chunk shape when a shard is over 8 MiB), else the chunk shape. */
  readonly block: readonly number[];
}

/** The row size along every store dim (the dim's size where a row spans it whole). */
export type RowSteps = ReadonlyMap<string, number>;

/**
 * Row sizes for `dims` from `sizes` when given (validated:
 * `InvalidArgument` for an unknown dim or a size that is not an integer
 * >= 1), else from the largest variable's storage grid within `budget`
 * bytes a row (nd-arrow's `storageRowSizes`).
 */
export function rowSteps(
  dims: readonly Dim[],
  variables: readonly GridVariable[],
  sizes?: Readonly<Record<string, number>>,
  path?: string,
  budget = ROW_BYTES,
): RowSteps {
  const steps = new Map(dims.map((d) => [d.name, Math.max(d.size, 1)]));
  if (sizes !== undefined) {
    for (const [name, size] of Object.entries(sizes)) {
      if (!steps.has(name)) {
        throw new ZarrError(
          "DimNotFound",
          `cannot cut rows along "${name}": the store has dims [${dims.map((d) => d.name).join(", ")}]`,
          { path },
        );
      }
      if (!Number.isSafeInteger(size) || size < 1) {
        throw new ZarrError(
          "InvalidArgument",
          `row size along "${name}" is ${String(size)}, expected an integer >= 1`,
          { path },
        );
      }
      steps.set(name, size);
    }
    return steps;
  }
  const largest = largestVariable(variables);
  if (largest === undefined) return steps;
  for (const [name, size] of Object.entries(storageRowSizes(largest, budget))) steps.set(name, size);
  return steps;
}

/** One row: where it starts and how far it reaches along each store dim. */
export interface RowWindow {
  /** Start along every store dim, in store dim order. */
  readonly offset: readonly number[];
  /** `[start, stop)` along every store dim. */
  readonly window: ReadonlyMap<string, readonly [number, number]>;
}

/**
 * Where the storage grid starts along each dim, as a shift: a store opened
 * at a region (`select`) starting at 30 along a dim of chunks of 24 has
 * phase 6 there, so its first row is 18 long and the next ones follow the
 * chunks (no chunk read twice). Dims not named have phase 0.
 */
export type RowPhase = ReadonlyMap<string, number>;

/** The number of rows `steps` cut `dims` into, with the grid shifted by `phase`. */
export function rowCount(dims: readonly Dim[], steps: RowSteps, phase: RowPhase = new Map()): number {
  return dims.reduce((n, d) => n * Math.max(1, Math.ceil((d.size + shift(phase, d, steps)) / steps.get(d.name)!)), 1);
}

/** The phase along `d`, within a step (0 when the row spans the dim whole). */
function shift(phase: RowPhase, d: Dim, steps: RowSteps): number {
  const step = steps.get(d.name)!;
  return step >= d.size ? 0 : (phase.get(d.name) ?? 0) % step;
}

/** The rows, in row-major order over the row indices, on the grid shifted by `phase`. */
export function* rowWindows(dims: readonly Dim[], steps: RowSteps, phase: RowPhase = new Map()): Generator<RowWindow> {
  const shifts = dims.map((d) => shift(phase, d, steps));
  const counts = dims.map((d, i) => Math.max(1, Math.ceil((d.size + shifts[i]!) / steps.get(d.name)!)));
  const total = counts.reduce((n, c) => n * c, 1);
  for (let r = 0; r < total; r++) {
    const offset = new Array<number>(dims.length);
    const window = new Map<string, readonly [number, number]>();
    for (let d = dims.length - 1, rest = r; d >= 0; d--) {
      const { name, size } = dims[d]!;
      const step = steps.get(name)!;
      const k = rest % counts[d]!;
      rest = Math.floor(rest / counts[d]!);
      offset[d] = Math.max(0, k * step - shifts[d]!);
      window.set(name, [offset[d]!, Math.min(size, (k + 1) * step - shifts[d]!)]);
    }
    yield { offset, window: new Map(dims.map((d) => [d.name, window.get(d.name)!])) };
  }
}
