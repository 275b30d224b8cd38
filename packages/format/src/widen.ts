/**
 * Widening a variable: the table schema after changing its value type, as
 * lance-nd's `widen` and a Promote write need it.
 */
import { Field, Schema } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { arrayColumnType } from "@lance-nd/nd-arrow";
import { canCast } from "@lance-nd/casting";
import { hasStats, statsField } from "@lance-nd/stats";
import { applyColumnEncoding, columnEncoding } from "./column-encoding.js";
import { FormatError } from "./errors.js";
import { validateTableSchema } from "./validate.js";

/** A change of the value type of one variable in the table. */
export interface Widening {
  /** The variable. */
  column: string;
  /** Its value type in the table before. */
  from: DataType;
  /** Its value type after. */
  to: DataType;
  /**
   * Its stats column after the widening, or null when the table has no stats
   * or `to` gets none. When the table had no stats column for the variable
   * (its old type got none), the widening adds it: FORMAT.md 4.6, one change.
   */
  statsColumn: Field | null;
}

/**
 * The table schema after widening `variable` to `to`, and what changes. The
 * variable keeps its attributes, field metadata and encoding; its stats
 * column gets the new type. `to` must hold each old value exactly (Safe
 * casting), else `SchemaMismatch`; `InvalidInput` when the table has no such
 * variable; `InvalidTable` for a bad table schema.
 *
 * @example
 * const { schema } = widenSchema(table, "sst", new Float64());
 */
export function widenSchema(
  tableSchema: Schema,
  variable: string,
  to: DataType,
): { schema: Schema; widening: Widening } {
  const layout = validateTableSchema(tableSchema);
  const array = layout.arrays.get(variable);
  if (array === undefined) {
    throw new FormatError("InvalidInput", `the table has no variable "${variable}" to widen`, { column: variable });
  }
  const from = array.valueType;
  if (!canCast(from, to, "safe")) {
    throw new FormatError(
      "SchemaMismatch",
      `variable "${variable}": cannot widen ${String(from)} to ${String(to)}, because not each value fits exactly (safe casting)`,
      { column: variable, from, to, casting: "safe" },
    );
  }
  const old = array.field;
  const oldStats = layout.statsColumns.get(variable);
  const column = applyColumnEncoding(
    new Field(variable, arrayColumnType(to, array.attrFields, array.attrsNullable), old.nullable, old.metadata),
    columnEncoding(old),
  );
  const statsColumn =
    layout.stats && hasStats(to)
      ? applyColumnEncoding(statsField(variable, to), columnEncoding(oldStats ?? old))
      : null;
  const fields: Field[] = [];
  for (const field of tableSchema.fields) {
    if (field.name === variable) fields.push(column);
    else if (field !== oldStats) fields.push(field);
    else if (statsColumn !== null) fields.push(statsColumn);
  }
  if (oldStats === undefined && statsColumn !== null) fields.push(statsColumn);
  return { schema: new Schema(fields, tableSchema.metadata), widening: { column: variable, from, to, statsColumn } };
}
