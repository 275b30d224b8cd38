/**
 * What the values of a dataset row weigh, uncompressed, from its dim sizes:
 * the measure of the take budget (take-groups.ts) and of the layout a read
 * chooses (layout-choice.ts; lance-nd README, "Layouts").
 */
import { DataType, Precision, type Float } from "apache-arrow";
import type { DatasetPlan } from "./plan.js";
import type { PlannedRow } from "./plan-rows.js";

/**
 * The bytes of the values of `names` in a dataset row (uncompressed,
 * estimated from the row's dim sizes): what a take of the row reads of them.
 */
export function rowValueBytes(plan: DatasetPlan, names: readonly string[]): (row: PlannedRow) => number {
  return valueBytesOf(plan, names, () => true);
}

/**
 * The bytes of the values of those of `names` a dataset row holds (a
 * variable null in the row reads no values): what a take of the row reads
 * when it takes columns some of its rows lack (take-cost.ts).
 */
export function heldValueBytes(plan: DatasetPlan, names: readonly string[]): (row: PlannedRow) => number {
  return valueBytesOf(plan, names, (row, name) => row.variables.has(name));
}

/** The bytes of the values of `names` in a row, counting those `counted` keeps. */
function valueBytesOf(
  plan: DatasetPlan,
  names: readonly string[],
  counted: (row: PlannedRow, name: string) => boolean,
): (row: PlannedRow) => number {
  const byName = new Map(plan.variables.map((v) => [v.name, v]));
  const variables = names.map((name) => byName.get(name)!);
  const position = new Map(plan.grid.map((d, i) => [d.name, i]));
  return (row) =>
    variables.reduce(
      (sum, v) =>
        counted(row, v.name)
          ? sum + valueBytes(v.type) * v.dims.reduce((n, dim) => n * row.size[position.get(dim)!]!, 1)
          : sum,
      0,
    );
}

/** Bytes per value of `type` in memory (bits count 1/8, variable-width values 16): what byte budgets and layout choices count. */
export function valueBytes(type: DataType): number {
  if (DataType.isFloat(type))
    return [2, 4, 8][
      (type as Float).precision === Precision.HALF ? 0 : (type as Float).precision === Precision.SINGLE ? 1 : 2
    ]!;
  const bits = (type as { bitWidth?: number }).bitWidth;
  if (DataType.isBool(type)) return 1 / 8;
  return typeof bits === "number"
    ? bits / 8
    : DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type)
      ? 16
      : 8;
}
