/**
 * The viewer's reads of a window: the 2-D slice a heatmap shows. A window
 * is a region read of lance-nd's `dataset` view (README "Datasets"):
 * `ds.isel(...)` picks one index along every dim but the two shown, then
 * `read([variable])` takes only the rows that hold the slice. A slider step
 * thus reads the chunks of one slice, not the dataset.
 */
import { DataType } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Dataset } from "lance-nd";
import { CliError } from "../errors.js";
import { cfDecode } from "@lance-nd/cf";
import { slice2d } from "../plot/slice.js";

/**
 * The 2-D window of `variable` in `ds` with `isel` (an index along every
 * dim but the two the window keeps; dims of size 1 may be left out): one
 * NdArray of the same name, Float64, dims (rows, cols) in the variable's
 * order, values CF-decoded as `plot` draws them (fill and missing values,
 * nulls and NaN are NaN; scale and offset applied), and the variable's
 * attributes.
 *
 * Throws `CliError` `InvalidArgument` for an unknown variable, one that is
 * not numbers, a dim the variable lacks, an index out of range, or a
 * selection that does not leave two dims.
 */
export async function readWindow(
  ds: Dataset,
  variable: string,
  isel: ReadonlyMap<string, number>,
): Promise<NdRecordBatch> {
  const spec = windowSpec(ds, variable, isel);
  const array = (await ds.isel(spec).read([variable])).get(variable)!;
  const slice = slice2d(
    cfDecode(array, { mask: true, scale: true, times: false, name: variable }),
    variable,
    new Map(),
  );
  const window = NdArray.from(slice.values, {
    dims: [
      [slice.rows.name, slice.rows.size],
      [slice.cols.name, slice.cols.size],
    ],
    attrs: array.attrs,
  });
  return new NdRecordBatch({ [variable]: window });
}

/** The `isel` of the window: the given indices, and 0 along the other dims of size 1. */
function windowSpec(ds: Dataset, variable: string, isel: ReadonlyMap<string, number>): Record<string, number> {
  const info = ds.variables.find((v) => v.name === variable);
  if (info === undefined) {
    throw new CliError(
      "InvalidArgument",
      `no variable "${variable}" in the dataset (it has ${ds.variables.map((v) => v.name).join(", ")})`,
      { variable },
    );
  }
  const sizes = new Map(ds.dims.map((d) => [d.name, d.size]));
  const shape = `(${info.dims.map((d) => `${d}=${sizes.get(d)}`).join(", ")})`;
  const fail = (why: string): never => {
    throw new CliError("InvalidArgument", `variable "${variable}" ${shape}: ${why}`, { variable });
  };
  if (!DataType.isInt(info.type) && !DataType.isFloat(info.type))
    fail(`has type ${String(info.type)}; a heatmap needs integers or floats`);
  for (const [dim, index] of isel) {
    const size = info.dims.includes(dim) ? sizes.get(dim)! : undefined;
    if (size === undefined) fail(`has no dim "${dim}" to select`);
    else if (index >= size) fail(`index ${dim}=${index} is out of range (0 to ${size - 1})`);
  }
  const free = info.dims.filter((d) => !isel.has(d) && sizes.get(d)! > 1);
  if (free.length !== 2) {
    fail(
      `${free.length} dims of size > 1 are left (${free.join(", ") || "none"}); a window needs 2, pick an index along the others`,
    );
  }
  return Object.fromEntries(info.dims.filter((d) => !free.includes(d)).map((d) => [d, isel.get(d) ?? 0]));
}
