/** Widening a variable of a table in place (`widen`). */
import { sameType } from "@lance-nd/casting";
import { widenSchema, type Widening } from "@lance-nd/format";
import type { DataType } from "apache-arrow";
import { isLanceNdError, LanceNdError } from "./errors.js";
import { addNullFields, castColumns, type ColumnCast } from "./lance/table-write.js";
import { withPureErrors } from "./pure-errors.js";
import { asSchemaChange } from "./schema-lock.js";
import type { NdTable } from "./table.js";
import { inSpan } from "./tracing.js";

/**
 * Changes the value type of variable `name` to `type`, and the type of its
 * stats column, in one Lance commit (plus one that puts back field metadata
 * when lancedb drops it). The new type must hold each old value exactly
 * (Safe casting, e.g. Float32 -> Float64, Int16 -> Int32). Other variables
 * stay as they are. Widening to the current type does nothing. Returns the
 * table version after the change. A widen that a concurrent commit
 * preempts starts again on the latest version, up to 10 times.
 *
 * Limits of Lance 12 (SDK-NOTES.md, section 6): Lance casts a nested field
 * only within a kind (Int16 -> Int32, Float32 -> Float64, not Int32 ->
 * Float64), and only once per column: a second widen of the same variable
 * fails. Both fail with `SchemaMismatch` and change nothing; write such a
 * table anew (`write` with mode "overwrite") with the wider type.
 *
 * @throws LanceNdError `SchemaMismatch` for a type that does not hold each
 * old value, a widen across kinds, or a second widen; `InvalidInput` for an unknown variable or a
 * read-only view; `CommitConflict` after 10 preempted tries.
 * @example
 * await widen(table, "sst", new Float64());
 */
export async function widen(table: NdTable, name: string, type: DataType): Promise<number> {
  return inSpan(
    "lance_nd.widen",
    table.uri,
    async () => {
      checkWritable(table, "widen");
      await table.refresh();
      const { widening } = withPureErrors({ uri: table.uri }, () => widenSchema(table.tableSchema, name, type));
      if (sameType(widening.from, widening.to)) return table.version();
      await widenVariable(table, widening);
      const layout = await table.refresh();
      const now = layout.arrays.get(name)?.valueType;
      if (now === undefined || !sameType(now, widening.to)) {
        throw new LanceNdError("SchemaMismatch", `the variable has type ${String(now)} after the widen, not ${String(widening.to)}`, {
          uri: table.uri,
          column: name,
        });
      }
      return table.version();
    },
    { "lance_nd.variable": name, "lance_nd.type": String(type) },
  );
}

/** @throws LanceNdError `InvalidInput` for a read-only view (from `checkout`). */
export function checkWritable(table: NdTable, op: string): void {
  if (table.readOnly) {
    throw new LanceNdError("InvalidInput", `${op}: the table is a read-only view of an earlier version (checkout); open the table to change it`, {
      uri: table.uri,
    });
  }
}

/** Casts the variable's values and its stats column in one alter, or adds the stats column the new type gets. */
async function widenVariable(table: NdTable, widening: Widening): Promise<void> {
  const { column, from, to, statsColumn } = widening;
  const oldStats = table.layout.statsColumns.get(column);
  if (oldStats !== undefined && statsColumn === null) {
    throw new LanceNdError("SchemaMismatch", `cannot widen ${String(from)} to ${String(to)}: the table has stats for the variable, and ${String(to)} gets none`, {
      uri: table.uri,
      column,
    });
  }
  const casts: ColumnCast[] = [{ path: `${column}.values.item`, type: to }];
  if (oldStats !== undefined) casts.push({ path: `${oldStats.name}.min`, type: to }, { path: `${oldStats.name}.max`, type: to });
  try {
    await asSchemaChange(table.lance, () => castColumns(table.lance, casts));
  } catch (err) {
    const why = !isLanceNdError(err)
      ? undefined
      : /fewer column indices/.test(err.message)
        ? "the variable (or its stats column) was widened before, and Lance 12 casts a nested field of a column only once"
        : /Cannot cast column/.test(err.message)
          ? "Lance 12 casts a nested field only within a kind (e.g. Int16 -> Int32, Float32 -> Float64)"
          : undefined;
    if (why === undefined) throw err;
    throw new LanceNdError("SchemaMismatch", `cannot widen ${String(from)} to ${String(to)} in place: ${why}; write the table anew with the wider type`, {
      uri: table.uri,
      column,
      cause: err,
    });
  }
  if (oldStats === undefined && statsColumn !== null) await addNullFields(table.lance, [statsColumn]);
}
