/**
 * A dataset view as an `NdSource` (nd-arrow README "The reader contract"):
 * what the netCDF and Zarr readers give, from a table's dataset, so code
 * that reads a dataset takes a table too. Its dims are the view's
 * selection; values are read through the view's `isel`, rows through its
 * reads of a window (README "Datasets").
 */
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type {
  Attr,
  Attrs,
  Dim,
  NdRecordBatch,
  NdRowPlan,
  NdSource,
  NdSourceVariable,
  Selection,
} from "@lance-nd/nd-arrow";
import { largestVariable, storageRowSizes } from "@lance-nd/nd-arrow/internal";
import { LanceNdError } from "../errors.js";
import type { Dataset } from "./dataset.js";
import { valueBytes } from "./row-bytes.js";

/**
 * `view` (a dataset or a selection of it) as an `NdSource`: its dims are
 * the selection's (a dim an index picked is left out), each variable's
 * attributes are those a whole read gives (the first file's), found by
 * reading one cell of each variable. `read(name, selection)` is
 * `view.isel(selection).read([name])`; `chunks(sizes)` reads the
 * selection window by window, all variables at once; `rowPlan(budget)`
 * cuts it along its slowest dims within the budget (its largest
 * variable's slabs, as nd-arrow's `storageRowSizes` cuts contiguous
 * storage). Bytes count a value as the dataset's reads do (`valueBytes`).
 * It has no warnings. `close()` releases nothing: the table stays open,
 * its owner closes it.
 *
 * @throws LanceNdError as the view's reads: `VariableNotFound`,
 * `DimNotFound` (also for a dim the variable lacks), `InvalidInput` for an
 * index outside its dim or a chunk size that is not an integer >= 1.
 * @example
 * const source = await datasetSource(await dataset(table));
 * await source.read("sst", { time: 0 }); // sst(lat, lon), as file.read("sst", { time: 0 })
 */
export async function datasetSource(view: Dataset): Promise<NdSource> {
  const { uri, globalAttrs, cells } = view.sourceFacts();
  const attrs = new Map<string, Attrs>();
  for await (const batch of cells) for (const [name, array] of batch.arrays()) attrs.set(name, array.attrs);
  const dims = await view.selectedDims();
  const sizes = new Map(dims.map((d) => [d.name, d.size]));
  const variables: NdSourceVariable[] = view.variables.map((v) => {
    const kept = v.dims.filter((d) => sizes.has(d)).map((d) => ({ name: d, size: sizes.get(d)! }));
    return {
      name: v.name,
      dims: kept,
      attrs: attrs.get(v.name) ?? new Map(),
      valueType: v.type,
      bytes: kept.reduce((n, d) => n * d.size, valueBytes(v.type)),
    };
  });
  const rows = (chunkSizes: Readonly<Record<string, number>>) => windowRows(uri, view, dims, globalAttrs, chunkSizes);
  return {
    path: uri,
    dims,
    variables,
    globalAttrs,
    warnings: [],
    read: async (name, selection = {}) => {
      const variable = variables.find((v) => v.name === name);
      if (variable !== undefined) checkDims(uri, variable, Object.keys(selection));
      return (await view.isel(selection).read([name])).get(name)!;
    },
    chunks: rows,
    rowPlan: (budget, chunkSizes) => rowPlan(variables, dims, budget, chunkSizes, rows),
    close: async () => {},
  };
}

/**
 * The rows of a source of `variables` on `dims` within `budget` bytes a
 * row: by `sizes` when given, else whole when it fits, else cut along the
 * slowest dims of its largest variable (`cut` says how); `rows` reads them.
 */
function rowPlan(
  variables: readonly NdSourceVariable[],
  dims: readonly Dim[],
  budget: number,
  sizes: Readonly<Record<string, number>> | undefined,
  rows: (sizes: Readonly<Record<string, number>>) => AsyncGenerator<NdRecordBatch>,
): NdRowPlan {
  const plan = (steps: Readonly<Record<string, number>>, cut: NdRowPlan["cut"]): NdRowPlan => ({
    count: dims.reduce(
      (n, d) => n * (Object.hasOwn(steps, d.name) ? Math.max(1, Math.ceil(d.size / steps[d.name]!)) : 1),
      1,
    ),
    cut,
    rows: () => rows(steps),
  });
  if (sizes !== undefined) return plan(sizes, undefined);
  const bytes = variables.reduce((n, v) => n + v.bytes, 0);
  const stored = variables.map((v) => ({
    dims: v.dims,
    itemBytes:
      v.bytes /
      Math.max(
        1,
        v.dims.reduce((n, d) => n * d.size, 1),
      ),
    block: null,
  }));
  const largest = largestVariable(stored);
  if (bytes <= budget || largest === undefined) return plan({}, undefined);
  const steps = Object.fromEntries(
    Object.entries(storageRowSizes(largest, budget)).filter(
      ([dim, step]) => step < dims.find((d) => d.name === dim)!.size,
    ),
  );
  if (Object.keys(steps).length === 0) return plan({}, undefined);
  const shape = Object.entries(steps)
    .map(([dim, step]) => `${dim}=${step}`)
    .join(",");
  return plan(steps, { bytes, how: `of ${shape} along its slowest dims` });
}

/** `DimNotFound` naming the first of `names` that is not a dim of `variable`. */
function checkDims(uri: string, variable: NdSourceVariable, names: readonly string[]): void {
  const unknown = names.find((name) => !variable.dims.some((d) => d.name === name));
  if (unknown === undefined) return;
  throw new LanceNdError(
    "DimNotFound",
    `dataset: variable "${variable.name}" has no dim "${unknown}"; its dims are ${variable.dims.map((d) => d.name).join(", ")}`,
    { uri, column: variable.name },
  );
}

/**
 * The rows of `view` cut `{ dim: size }` along the dims `sizes` names (the
 * others whole), in row-major order of the windows, each read with every
 * variable and given `globals` and its `chunk_offset` (in the row's grid
 * order). `DimNotFound` for a size along a dim the view does not have,
 * `InvalidInput` for a size that is not an integer >= 1.
 */
async function* windowRows(
  uri: string,
  view: Dataset,
  dims: readonly Dim[],
  globals: Attrs,
  sizes: Readonly<Record<string, number>>,
): AsyncGenerator<NdRecordBatch> {
  for (const [dim, size] of Object.entries(sizes)) {
    if (!dims.some((d) => d.name === dim))
      throw new LanceNdError(
        "DimNotFound",
        `dataset: cannot cut rows along "${dim}": the dims are ${dims.map((d) => d.name).join(", ")}`,
        { uri },
      );
    if (!Number.isInteger(size) || size < 1)
      throw new LanceNdError("InvalidInput", `dataset: row size along "${dim}" is ${size}, expected an integer >= 1`, {
        uri,
      });
  }
  const steps = dims.map((d) => (Object.hasOwn(sizes, d.name) ? sizes[d.name]! : Math.max(d.size, 1)));
  const counts = dims.map((d, k) => Math.max(1, Math.ceil(d.size / steps[k]!)));
  const total = counts.reduce((n, c) => n * c, 1);
  for (let c = 0; c < total; c++) {
    const starts = new Array<number>(dims.length);
    for (let k = dims.length - 1, rest = c; k >= 0; k--) {
      starts[k] = (rest % counts[k]!) * steps[k]!;
      rest = Math.floor(rest / counts[k]!);
    }
    const window: Selection = Object.fromEntries(
      dims.map((d, k) => [d.name, [starts[k]!, Math.min(starts[k]! + steps[k]!, d.size)] as const]),
    );
    const row = await view.isel(window).read();
    const at = new Map(dims.map((d, k) => [d.name, starts[k]!]));
    const rowGlobals = new Map<string, Attr>(globals);
    rowGlobals.set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(row.grid(), (d) => at.get(d.name)!)));
    yield row.withGlobalAttrs(rowGlobals);
  }
}
