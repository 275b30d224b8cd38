/** Schema evolution before an append: widen, add new fields and schema metadata keys. */
import { addedFields, planWrite, type PlanOptions, type WritePlan } from "@lance-nd/format";
import type { Field, Schema } from "apache-arrow";
import type { CommitLedger } from "./commit-ledger.js";
import { LanceNdError } from "../errors.js";
import { addNullFields, addSchemaMetadata } from "../lance/table-write.js";
import { withPureErrors } from "../pure-errors.js";
import type { NdTable } from "../table.js";
import { widenTable } from "../widen/widen.js";

const MAX_ROUNDS = 10;

/**
 * Brings the table to the schema that rows with the nd schema `incoming`
 * need, and returns the write plan against the table as it is then (no
 * widenings, no new fields left; its `casts` still apply to the rows).
 * Under "promote" it widens variables first (`widen`); then it adds the new
 * variables with their stats columns, attribute keys and global attributes
 * as all-null fields in one commit, then the new schema metadata keys.
 * The schema is read again before each step, so a concurrent change by
 * another writer is planned for; it gives up after 10 rounds (a
 * `CommitConflict` that is not retried again). A widen that
 * rewrote the table is recorded in `ledger` (the rows of the ledger's
 * earlier appends now read as created by the rewrite).
 *
 * @throws LanceNdError `SchemaMismatch` (types that do not fit under the
 * casting mode, naming the variable), `InvalidInput`, `CommitConflict`.
 */
export async function evolveFor(
  table: NdTable,
  incoming: Schema,
  options: PlanOptions,
  ledger?: CommitLedger,
): Promise<WritePlan> {
  const context = { uri: table.uri };
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    await table.refresh();
    const current = table.tableSchema;
    const plan = withPureErrors(context, () => planWrite(current, incoming, options));
    if (plan.widenings.length > 0) {
      for (const { column, to } of plan.widenings) {
        if ((await widenTable(table, column, to)).rewritten) ledger?.recordRewrite();
      }
      continue;
    }
    const added = addedFields(current, plan.schema);
    const newKeys = Object.fromEntries([...plan.schema.metadata].filter(([key]) => !current.metadata.has(key)));
    if (added.length === 0 && Object.keys(newKeys).length === 0) return plan;
    if (added.length > 0) {
      const names = new Set(added.map((a) => a.path[0]));
      await addNullFields(
        table.lance,
        plan.schema.fields.filter((f: Field) => names.has(f.name)),
      );
    }
    if (Object.keys(newKeys).length > 0) await addSchemaMetadata(table.lance, newKeys);
  }
  // Not retryable: the rounds were the re-planning, and the add's own retries (commit-retry.ts) must not run them all again.
  throw new LanceNdError("CommitConflict", `the table schema kept changing under the write (${MAX_ROUNDS} rounds)`, {
    uri: table.uri,
    retryable: false,
  });
}
