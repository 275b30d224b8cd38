/**
 * The read planner's choice among a dataset's current layouts (README
 * "Layouts"): a read costs the bytes of the rows it takes, so it plans the
 * selection on every current layout and takes the one whose rows hold the
 * fewest bytes of the variables read; ties go to the layout created first
 * (the source's own rows before any other).
 */
import type { DatasetPlan } from "./plan.js";
import { valueBytes } from "./row-bytes.js";
import type { DimRange } from "./selection.js";
import { variableRows } from "./variable-rows.js";

/** One layout a read may take: its name (`source` for the dataset's own rows) and plan. */
export interface ReadLayout {
  readonly name: string;
  readonly plan: DatasetPlan;
}

/**
 * The bytes of values of `names` that the rows a read of `ranges` takes
 * on `plan` hold: a take reads each of those rows' variables whole.
 */
function readBytes(plan: DatasetPlan, ranges: readonly DimRange[], names: readonly string[]): number {
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  let bytes = 0;
  for (const group of variableRows(plan, ranges, names)) {
    for (const name of group.names) {
      const variable = plan.variables.find((v) => v.name === name)!;
      const width = valueBytes(variable.type);
      const dims = variable.dims.map((dim) => position.get(dim)!);
      for (const row of group.rows) bytes += width * dims.reduce((n, d) => n * row.size[d]!, 1);
    }
  }
  return bytes;
}

/** The layout among `layouts` (in creation order) whose rows for the read hold the fewest bytes; the first on a tie. */
export function chooseLayout(
  layouts: readonly ReadLayout[],
  ranges: readonly DimRange[],
  names: readonly string[],
): ReadLayout {
  if (layouts.length === 1 || names.length === 0) return layouts[0]!;
  let best = layouts[0]!;
  let fewest = readBytes(best.plan, ranges, names);
  for (const layout of layouts.slice(1)) {
    const bytes = readBytes(layout.plan, ranges, names);
    if (bytes < fewest) [best, fewest] = [layout, bytes];
  }
  return best;
}
