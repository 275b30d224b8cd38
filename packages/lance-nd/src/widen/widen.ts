/** Widening a variable of a table (`widen`): in place where Lance can cast, else by a rewrite. */
import { sameType } from "@lance-nd/casting";
import { widenSchema, type Widening } from "@lance-nd/format";
import type { DataType, Schema } from "apache-arrow";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { keyIndexesOf } from "../read/key-index.js";
import { createBtreeIndex } from "../lance/table-indexes.js";
import { addNullFields, castColumns, type ColumnCast } from "../lance/table-write.js";
import { withPureErrors } from "../pure-errors.js";
import { asSchemaChange } from "./schema-lock.js";
import type { NdTable } from "../table.js";
import { checkWritable } from "../table-check.js";
import { inSpan } from "../tracing.js";
import { completeWidenReplay } from "./widen-replay.js";
import type { RewriteHooks } from "./widen-replay-record.js";
import { rewriteWidened } from "./widen-rewrite.js";

/**
 * Changes the value type of variable `name` to `type`, and the type of its
 * stats column. The new type must hold each old value exactly (Safe
 * casting: Float32 -> Float64, Int16 -> Int32, Int32 -> Float64, UInt8 ->
 * Int16, …). Other variables, attributes, global attributes, field
 * metadata, encodings and column defaults stay. Widening to the current type
 * does nothing. Returns the table version after the change.
 *
 * Two paths (README.md, Widen). Where Lance can cast the nested field in
 * place (within a kind, e.g. Float32 -> Float64, and the first cast of the
 * column), the data files stay and the widen is one commit (plus one that
 * puts back field metadata when lancedb drops it). Otherwise (across kinds,
 * or a second widen of the variable: SDK-NOTES.md, section 6) every row of
 * the table is read, cast and written again as ONE new version (a Lance
 * overwrite): it costs a full read and write of the table and holds all rows
 * in memory; the rows get new row ids and creation versions; earlier
 * versions stay readable through `checkout`. What other writers commit
 * while a rewrite runs is replayed after it by stable row id (deletes and
 * appends; widen-window.ts); a schema change in that window undoes the
 * rewrite and fails the widen with a retryable `CommitConflict`. Each
 * commit of a widen leaves a readable table with every committed row, so
 * the commit ledger does not undo a widen (README.md, Widen). An in-place widen
 * that a concurrent commit preempts starts again on the latest version, up
 * to 10 times. Within one process, appends wait for a widen. A replay a
 * killed widen left unfinished (recorded in the table) is completed first
 * (README.md, Widen).
 *
 * @throws LanceNdError `SchemaMismatch` for a type that does not hold each
 * old value (nothing changes); `InvalidInput` for an unknown variable or a
 * read-only view; `CommitConflict` after 10 preempted tries, or when a
 * rewrite replaced a concurrent schema change (retryable: run it again).
 * @example
 * await widen(table, "sst", new Float64());
 */
export async function widen(table: NdTable, name: string, type: DataType): Promise<number> {
  return (await widenTable(table, name, type)).version;
}

/**
 * @internal {@link widen}, also telling whether it rewrote the table (so
 * every row now reads as created by the new version).
 */
export async function widenTable(
  table: NdTable,
  name: string,
  type: DataType,
  hooks: RewriteHooks = {},
): Promise<{ version: number; rewritten: boolean }> {
  checkWritable(table, "widen");
  if (typeof (type as { typeId?: unknown } | null)?.typeId !== "number") {
    throw new LanceNdError(
      "InvalidInput",
      `widen: type must be an Arrow DataType (e.g. new Float64()), got ${String(type)}`,
      { uri: table.uri },
    );
  }
  return inSpan(
    "lance_nd.widen",
    table.uri,
    async (span) => {
      // A second rewrite on top of an unfinished replay would lose its window for good.
      await asSchemaChange(table.lance, () => completeWidenReplay(table.lance, hooks));
      await table.refresh();
      const { schema, widening } = withPureErrors({ uri: table.uri }, () => widenSchema(table.tableSchema, name, type));
      if (sameType(widening.from, widening.to)) return { version: await table.version(), rewritten: false };
      const path = await asSchemaChange(table.lance, () => widenVariable(table, schema, widening, hooks));
      span.setAttribute("lance_nd.widen.path", path);
      const layout = await table.refresh();
      const now = layout.arrays.get(name)?.valueType;
      if (now === undefined || !sameType(now, widening.to)) {
        throw new LanceNdError(
          "SchemaMismatch",
          `the variable has type ${String(now)} after the widen, not ${String(widening.to)}`,
          {
            uri: table.uri,
            column: name,
          },
        );
      }
      return { version: await table.version(), rewritten: path === "rewrite" };
    },
    { "lance_nd.variable": name, "lance_nd.type": String(type) },
  );
}

/**
 * Casts the variable's values and its stats column in one alter (adding the
 * stats column the new type gets), or rewrites the table where Lance cannot
 * cast in place. Returns the path taken.
 */
async function widenVariable(
  table: NdTable,
  schema: Schema,
  widening: Widening,
  hooks: RewriteHooks,
): Promise<"in_place" | "rewrite"> {
  const { column, from, to, statsColumn } = widening;
  const oldStats = table.layout.statsColumns.get(column);
  if (oldStats !== undefined && statsColumn === null) {
    throw new LanceNdError(
      "SchemaMismatch",
      `cannot widen ${String(from)} to ${String(to)}: the table has stats for the variable, and ${String(to)} gets none`,
      {
        uri: table.uri,
        column,
      },
    );
  }
  const casts: ColumnCast[] = [{ path: `${column}.values.item`, type: to }];
  if (oldStats !== undefined)
    casts.push({ path: `${oldStats.name}.min`, type: to }, { path: `${oldStats.name}.max`, type: to });
  try {
    await castColumns(table.lance, casts);
  } catch (err) {
    // Lance 12 casts a nested field within a kind only ("Cannot cast column"),
    // and once per column ("fewer column indices"); both change nothing.
    if (!isLanceNdError(err) || !/fewer column indices|Cannot cast column/.test(err.message)) throw err;
    // An overwrite leaves the new version without indexes (SDK-NOTES.md, section 22): build the key indexes again.
    const indexed = await keyIndexesOf(table.lance);
    await rewriteWidened(table.lance, schema, widening, hooks);
    for (const index of indexed) await createBtreeIndex(table.lance, index.column);
    return "rewrite";
  }
  if (oldStats === undefined && statsColumn !== null) await addNullFields(table.lance, [statsColumn]);
  return "in_place";
}
