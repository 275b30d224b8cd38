/**
 * The viewer's reads of a window: the 2-D slice a heatmap shows. A window
 * is a region read of lance-nd's `dataset` view (README "Datasets"):
 * `ds.isel(...)` picks one index along every dim but the two shown, then
 * `blocks([variable])` takes only the rows that hold the slice, one at a
 * time. A slider step thus reads the chunks of one slice, not the dataset,
 * and a slice larger than the window limit (window-limit.ts) is taken every
 * n-th cell as it streams.
 */
import { DataType, Precision, Type } from "apache-arrow";
import type { Float } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import type { Attrs, Dim } from "@lance-nd/nd-arrow";
import type { Dataset } from "lance-nd";
import { CliError } from "../errors.js";
import { cfDecode } from "@lance-nd/cf";
import { MAX_WINDOW_CELLS, steppedCells, windowStep } from "./window-limit.js";

/**
 * The 2-D window of `variable` in `ds` with `isel` (an index along every
 * dim but the two the window keeps; dims of size 1 may be left out), taken
 * every `step` cells along both kept dims: one NdArray of the same name,
 * Float64, dims (rows, cols) in the variable's order, values CF-decoded as
 * `plot` draws them (fill and missing values, nulls and NaN are NaN; scale
 * and offset applied), and the variable's attributes. The slice is read
 * block by block (one row of the table at a time), so memory holds one
 * row and the answer, whatever the slice's size.
 *
 * Throws `CliError` `InvalidArgument` for an unknown variable, one that is
 * not numbers, a dim the variable lacks, an index out of range, a
 * selection that does not leave two dims, or a window of more than
 * {@link MAX_WINDOW_CELLS} cells at `step` (naming the step that fits).
 */
export async function readWindow(
  ds: Dataset,
  variable: string,
  isel: ReadonlyMap<string, number>,
  step = 1,
): Promise<NdRecordBatch> {
  const { spec, rows, cols } = windowSpec(ds, variable, isel);
  const cells = steppedCells(rows.size, cols.size, step);
  if (cells > MAX_WINDOW_CELLS) {
    throw new CliError(
      "InvalidArgument",
      `variable "${variable}": a window of ${rows.name}=${rows.size} x ${cols.name}=${cols.size} at step=${step} holds ${cells} cells, more than the viewer's limit of ${MAX_WINDOW_CELLS}; ask with step=${windowStep(rows.size, cols.size)} (the page does)`,
      { variable },
    );
  }
  const out: Sampled = {
    values: new Float64Array(cells).fill(Number.NaN),
    rows: Math.ceil(rows.size / step),
    cols: Math.ceil(cols.size / step),
    step,
  };
  // A block's offset runs along the dims the selection keeps, in the dataset's order.
  const kept = ds.dims.map((d) => d.name).filter((name) => !(name in spec));
  let attrs: Attrs | undefined;
  for await (const block of ds.isel(spec).blocks([variable])) {
    const array = block.batch.get(variable)!;
    attrs ??= array.attrs;
    const decoded = cfDecode(array, { mask: true, scale: true, times: false, name: variable });
    sampleBlock(decoded, block.offset[kept.indexOf(rows.name)]!, block.offset[kept.indexOf(cols.name)]!, out);
  }
  const window = NdArray.from(out.values, {
    dims: [
      [rows.name, out.rows],
      [cols.name, out.cols],
    ],
    attrs: attrs ?? new Map(),
  });
  return new NdRecordBatch({ [variable]: window });
}

/** A window being filled: `rows` x `cols` values, row-major, each the source cell at (row, col) times `step`. */
interface Sampled {
  readonly values: Float64Array;
  readonly rows: number;
  readonly cols: number;
  readonly step: number;
}

/** Copies the cells of a decoded 2-D block starting at (`row0`, `col0`) that fall on the window's step into `out`. */
function sampleBlock(block: NdArray, row0: number, col0: number, out: Sampled): void {
  const [blockRows, blockCols] = block.shape as [number, number];
  const vector = block.values;
  const half = block.type.typeId === Type.Float && (block.type as Float).precision === Precision.HALF;
  // Float16 vectors hold raw bits: read them as numbers.
  const source = (half ? Float32Array.from(vector as Iterable<number>) : vector.toArray()) as ArrayLike<
    number | bigint
  >;
  const nulls = vector.nullCount > 0;
  const { step } = out;
  const firstRow = Math.ceil(row0 / step);
  const firstCol = Math.ceil(col0 / step);
  for (let r = firstRow; r < out.rows && r * step < row0 + blockRows; r++) {
    const at = (r * step - row0) * blockCols - col0;
    for (let c = firstCol; c < out.cols && c * step < col0 + blockCols; c++) {
      const i = at + c * step;
      out.values[r * out.cols + c] = nulls && !vector.isValid(i) ? Number.NaN : Number(source[i]!);
    }
  }
}

/** The `isel` of the window (the given indices, and 0 along the other dims of size 1) and the two dims it keeps. */
function windowSpec(
  ds: Dataset,
  variable: string,
  isel: ReadonlyMap<string, number>,
): { spec: Record<string, number>; rows: Dim; cols: Dim } {
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
  const spec = Object.fromEntries(info.dims.filter((d) => !free.includes(d)).map((d) => [d, isel.get(d) ?? 0]));
  const [rows, cols] = free.map((name) => ({ name, size: sizes.get(name)! })) as [Dim, Dim];
  return { spec, rows, cols };
}
