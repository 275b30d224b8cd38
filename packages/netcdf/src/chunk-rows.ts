/**
 * A netCDF file as rows (`NetcdfFile.chunks`), whether the whole file or a
 * region of it (selected-file.ts): batches of at most `sizes[dim]` along
 * each named dim, read one at a time through the file's `read`.
 */
import { CHUNK_OFFSET, NdRecordBatch, attr, isNdArrowError, resolveSelection } from "@lance-nd/nd-arrow";
import type { Attr, Dim, NdArray, SelectedDim, Selection } from "@lance-nd/nd-arrow";
import { parseOptions } from "@lance-nd/casting/coded-error";
import { z } from "zod";
import { NetcdfError, netcdfOptionsError } from "./netcdf-error.js";
import type { NetcdfChunksOptions, NetcdfFile } from "./open.js";

const chunksOptionsSchema = z.strictObject({ variables: z.array(z.string()).readonly().optional() });

/**
 * What `selection` keeps of `dims` of the file at `path` (of its variable
 * `name`, when given); its problems as `NetcdfError`s of the same code
 * (`DimNotFound`, else `InvalidArgument`).
 */
export function selectedDims(path: string, dims: readonly Dim[], selection: Selection, name?: string): SelectedDim[] {
  try {
    return resolveSelection(selection, dims, name === undefined ? "the file" : `variable "${name}"`);
  } catch (cause) {
    if (!isNdArrowError(cause)) throw cause;
    const code = cause.code === "DimNotFound" ? "DimNotFound" : "InvalidArgument";
    throw new NetcdfError(code, `${path}: ${cause.detail}`, { path, variable: name, cause });
  }
}

/**
 * The rows of `file` (the `chunks` of {@link NetcdfFile}): in row-major
 * order of the chunk indices, each with the file's global attributes and
 * `chunk_offset`. `DimNotFound` for a size along a dim the chosen variables
 * lack, `InvalidArgument` for a size that is not an integer >= 1.
 */
export async function* chunkRows(
  file: Pick<NetcdfFile, "path" | "variables" | "globalAttrs" | "variable" | "read">,
  sizes: Readonly<Record<string, number>>,
  options: NetcdfChunksOptions = {},
): AsyncGenerator<NdRecordBatch> {
  const parsed = parseOptions(chunksOptionsSchema, options, "chunks", netcdfOptionsError(file.path));
  const chosen = (parsed.variables ?? file.variables.map((v) => v.name)).map((n) => file.variable(n));
  const grid: Dim[] = [];
  for (const v of chosen) for (const d of v.dims) if (!grid.some((g) => g.name === d.name)) grid.push(d);
  for (const [dim, size] of Object.entries(sizes)) {
    if (!grid.some((g) => g.name === dim)) {
      throw new NetcdfError(
        "DimNotFound",
        `${file.path}: cannot chunk along "${dim}": the file's variables have dims ${grid.map((g) => g.name).join(", ")}`,
        { path: file.path },
      );
    }
    if (!Number.isInteger(size) || size < 1)
      throw new NetcdfError(
        "InvalidArgument",
        `${file.path}: chunk size along "${dim}" is ${size}, expected an integer >= 1`,
        { path: file.path },
      );
  }
  const steps = grid.map((d) => (Object.hasOwn(sizes, d.name) ? sizes[d.name]! : Math.max(d.size, 1)));
  const counts = grid.map((d, i) => Math.max(1, Math.ceil(d.size / steps[i]!)));
  const total = counts.reduce((n, c) => n * c, 1);
  // Arrays that no chunk cuts are read once and repeated, as nd-arrow's chunk does.
  const whole = new Map<string, NdArray>();
  for (let c = 0; c < total; c++) {
    const starts = new Array<number>(grid.length);
    for (let d = grid.length - 1, rest = c; d >= 0; d--) {
      starts[d] = (rest % counts[d]!) * steps[d]!;
      rest = Math.floor(rest / counts[d]!);
    }
    const window: Record<string, [number, number]> = {};
    grid.forEach((dim, d) => {
      window[dim.name] = [starts[d]!, Math.min(starts[d]! + steps[d]!, dim.size)];
    });
    const arrays: [string, NdArray][] = [];
    for (const v of chosen) {
      const cut = v.dims.some((d) => window[d.name]![1] - window[d.name]![0] !== d.size);
      let array = cut ? undefined : whole.get(v.name);
      if (array === undefined) {
        array = await file.read(v.name, Object.fromEntries(v.dims.map((d) => [d.name, window[d.name]!])));
        if (!cut) whole.set(v.name, array);
      }
      arrays.push([v.name, array]);
    }
    // `chunk_offset` follows the row's grid as NdRecordBatch orders it (widest array's dims first), not the file's dim order.
    const row = new NdRecordBatch(arrays, file.globalAttrs);
    const at = new Map(grid.map((d, i) => [d.name, starts[i]!]));
    const globals = new Map<string, Attr>(file.globalAttrs);
    globals.set(CHUNK_OFFSET, attr.uint32(Uint32Array.from(row.grid(), (d) => at.get(d.name)!)));
    yield row.withGlobalAttrs(globals);
  }
}
