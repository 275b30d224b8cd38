/** The variables (array columns) of a table, from its schema. */
import type { DataType } from "apache-arrow";
import type { NdTable } from "../table.js";
import { checkTable } from "../table-check.js";

/** One variable of a table. */
export interface VariableInfo {
  /** The variable (column) name. */
  name: string;
  /** The value type of its arrays. */
  valueType: DataType;
  /** Its attribute keys and their types, in schema order (each row has a subset). */
  attrs: { key: string; type: DataType }[];
  /** True when the table has a `__stats__:<name>` column for it (filters can use its min and max). */
  hasStats: boolean;
}

/**
 * The variables of the table at its latest version (or the version of a
 * checked-out view), in schema order. Dims are not listed: the schema does
 * not hold them, each row has its own grid (read a row to see its dims).
 *
 * @example
 * for (const v of await variables(table)) console.log(v.name, String(v.valueType), v.hasStats);
 */
export async function variables(table: NdTable): Promise<VariableInfo[]> {
  checkTable(table, "variables");
  const layout = await table.refreshIfMoved();
  return [...layout.arrays].map(([name, column]) => ({
    name,
    valueType: column.valueType,
    attrs: column.attrFields.map((field) => ({ key: field.name, type: field.type })),
    hasStats: layout.statsColumns.has(name),
  }));
}
