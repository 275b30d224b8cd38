/**
 * The reader contract as one type (README "The reader contract"): what
 * the netCDF reader (`NetcdfFile`), the Zarr reader (`ZarrStore`) and a
 * lance-nd table's dataset view share, so code that reads a dataset takes
 * any of them.
 */
import type { Attrs } from "./attrs.js";
import type { NdArray, Dim } from "./ndarray.js";
import type { NdRecordBatch } from "./batch.js";
import type { Selection } from "./window.js";

/** One variable of an {@link NdSource}: its name, dims (with sizes) and attributes as stored. */
export interface NdSourceVariable {
  readonly name: string;
  readonly dims: readonly Dim[];
  readonly attrs: Attrs;
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
  read(name: string, selection?: Selection): Promise<NdArray>;
  chunks(sizes: Readonly<Record<string, number>>): AsyncGenerator<NdRecordBatch>;
  close(): Promise<void>;
}
