/**
 * The reader contract as one type (README "The reader contract"): what
 * the netCDF reader (`NetcdfFile`), the Zarr reader (`ZarrStore`) and a
 * lance-nd table's dataset view share, so code that reads a dataset takes
 * any of them.
 */
import type { DataType } from "apache-arrow";
import type { Attrs } from "./attrs.js";
import type { NdArray, Dim } from "./ndarray.js";
import type { NdRecordBatch } from "./batch.js";
import type { Selection } from "./window.js";

/** One variable of an {@link NdSource}: its name, dims (with sizes), attributes, value type and bytes as stored. */
export interface NdSourceVariable {
  readonly name: string;
  readonly dims: readonly Dim[];
  readonly attrs: Attrs;
  /** The Arrow type of the values `read` gives (stored, not CF-decoded); `undefined` for values the reader gives no one type (netCDF strings). */
  readonly valueType: DataType | undefined;
  /** The bytes of the whole variable, uncompressed (an estimate for variable-width values). */
  readonly bytes: number;
}

/**
 * How an {@link NdSource} cuts into rows for a row budget
 * (`NdSource.rowPlan`): how many rows, whether its size made the reader
 * cut it, and the rows.
 */
export interface NdRowPlan {
  /** The number of rows `rows()` yields. */
  readonly count: number;
  /**
   * Set when the source is larger than the budget and the reader cut it on
   * its own (no sizes asked): its bytes and how it was cut
   * (`of time=4 on its storage chunks`), for the caller to say so.
   */
  readonly cut: { readonly bytes: number; readonly how: string } | undefined;
  /** The rows, each with its `chunk_offset` (a source that is one row may have none), one in memory at a time. */
  rows(): AsyncGenerator<NdRecordBatch>;
}

/**
 * A dataset to read from: its variables and global attributes known when
 * it is opened, values read on request (README "Windows").
 *
 * - `read(name, selection)` returns the values of one variable inside a
 *   `Selection` (an index drops the dim), as stored (no CF decoding), and
 *   reads only what the selection touches. Errors carry the reader's
 *   codes: `VariableNotFound` for an unknown name, `DimNotFound` for a dim
 *   the variable lacks, the bad-input code for an index outside its dim.
 * - `chunks(sizes)` yields the source as rows (`NdRecordBatch`es with
 *   `chunk_offset`), cut `{ dim: size }` along the dims named.
 * - `rowPlan(budget, sizes?)` says how it cuts into rows of at most
 *   `budget` bytes (each reader by its own storage: README "The reader
 *   contract"), or by `sizes` when given (`DimNotFound` for a dim it
 *   lacks), with the count of rows before any is read.
 * - `close()` releases it; nothing may be read after.
 *
 * @example
 * async function firstStep(source: NdSource, name: string) {
 *   const [time] = source.variables.find((v) => v.name === name)!.dims;
 *   return source.read(name, { [time!.name]: 0 });
 * }
 */
export interface NdSource {
  /** Where it was opened from (a path or URL), for messages. */
  readonly path: string;
  /** Every dim of its variables, with sizes. */
  readonly dims: readonly Dim[];
  readonly variables: readonly NdSourceVariable[];
  readonly globalAttrs: Attrs;
  /** What the reader left out or could not give (groups, unsupported types), one line each. */
  readonly warnings: readonly string[];
  read(name: string, selection?: Selection): Promise<NdArray>;
  chunks(sizes: Readonly<Record<string, number>>): AsyncGenerator<NdRecordBatch>;
  rowPlan(budget: number, sizes?: Readonly<Record<string, number>>): NdRowPlan;
  close(): Promise<void>;
}
