/**
 * The commits of a writer's rows (README.md, "Commits with this SDK"): the
 * first rows create the table; every later group of rows is one append,
 * after the schema changes it needs, tried again on the latest version under
 * the one retry policy (commit-retry.ts).
 */
import { encodeRows, tableSchema as ndTableSchema } from "@lance-nd/format";
import { encodeSchema, GLOBAL_ATTRS_COLUMN, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { statsColumnName } from "@lance-nd/stats";
import { Schema } from "apache-arrow";
import { castBatches } from "./cast-rows.js";
import type { CommitLedger } from "./commit-ledger.js";
import { withCommitRetries } from "../lance/commit-retry.js";
import { isLanceNdError } from "../errors.js";
import { evolveFor } from "./evolve.js";
import { createTable, openCommitHandle } from "../lance/table-open.js";
import { undoIfWidenedUnder } from "../widen/widen-race.js";
import { currentVersion } from "../lance/table-versions.js";
import { appendRows } from "../lance/table-write.js";
import { planOptions, type ParsedWriteOptions } from "./write-options.js";
import { withPureErrors } from "../pure-errors.js";
import { asAppend } from "../widen/schema-lock.js";
import { NdTable } from "../table.js";

/** Runs schema changes one at a time: a writer's adds may overlap, their schema steps may not. */
export class SchemaTurns {
  #last: Promise<unknown> = Promise.resolve();

  /** Runs `work` after every schema step started before it. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#last.then(work);
    this.#last = turn.catch(() => undefined);
    return turn;
  }
}

/**
 * Creates (or overwrites) the table at `uri` with `rows` (possibly none) in
 * one version, under `schema` (the writer's schema so far, or the schema of
 * a table without columns). Records the commit in `ledger`.
 */
export async function commitCreate(
  uri: string,
  schema: Schema | null,
  rows: NdRecordBatch[],
  options: ParsedWriteOptions,
  ledger: CommitLedger,
): Promise<NdTable> {
  const base = schema ?? ndTableSchema(encodeSchema([]), planOptions(options));
  const extra = options.schemaMetadata;
  const tableSchema =
    extra === undefined
      ? base
      : new Schema(base.fields, new Map([...base.metadata, ...Object.entries(extra)]), base.dictionaries);
  const encoded = withPureErrors({ uri }, () => encodeRows(rows, tableSchema));
  const lance = await createTable(uri, tableSchema, rows.length === 0 ? [] : encoded, {
    mode: options.mode === "overwrite" ? "overwrite" : "create",
    stableRowIds: true,
    ...(options.storageOptions === undefined ? {} : { storageOptions: options.storageOptions }),
  });
  ledger.recordCreate();
  const table = await NdTable.fromLance(lance);
  if (rows.length > 0) await ledger.recordAppend(lance, await currentVersion(lance), rows.length);
  return table;
}

/**
 * The columns of `schema` that `rows` fill: their variables with their
 * stats columns, and `__global_attrs__`. An add of them leaves the table's
 * other columns out of the fragment it writes: Lance reads them as null
 * without storing anything (SDK-NOTES.md, section 28), where an add of every
 * column wrote a null of each (a row of GMT's `dcw-gmt.nc` holds 2 to 100 of
 * its 1,046 variables).
 */
function columnsOfRows(schema: Schema, rows: readonly NdRecordBatch[]): Schema {
  const filled = new Set([GLOBAL_ATTRS_COLUMN]);
  for (const row of rows) {
    for (const [name] of row.arrays()) filled.add(name).add(statsColumnName(name));
  }
  return new Schema(
    schema.fields.filter((field) => filled.has(field.name)),
    schema.metadata,
    schema.dictionaries,
  );
}

/**
 * Evolves `table` for `rows` (new columns, widens under "promote"), casts
 * and encodes them in the columns they fill, and appends them in one Lance commit; records the
 * commit (and any rewrite of the table) in `ledger` and returns its
 * version. Tried again on the latest version after a retryable conflict,
 * when another writer changed the table schema between the plan and the
 * commit, or when another process widened the table in place while the add
 * was written (its rows are removed first: widen-race.ts).
 *
 * @throws LanceNdError `SchemaMismatch`, `CommitConflict`, `WriterFailed`.
 */
export async function commitAppend(
  table: NdTable,
  rows: NdRecordBatch[],
  options: ParsedWriteOptions,
  ledger: CommitLedger,
  turns: SchemaTurns,
): Promise<number> {
  const incoming = encodeSchema(rows);
  const version = await withCommitRetries(
    async () => {
      const plan = await turns.run(() => evolveFor(table, incoming, planOptions(options), ledger));
      const cast = castBatches(rows, plan.casts, options.casting, table.uri);
      const encoded = withPureErrors({ uri: table.uri }, () => encodeRows(cast, columnsOfRows(plan.schema, cast)));
      const committed = await asAppend(table.lance, async () => {
        // A handle of its own, without read consistency checks: lancedb's add
        // returns the handle's version after the call, and only such a handle
        // reports its own commit rather than a concurrent one. appendRows
        // checks the rows against the schema the handle opened.
        const handle = await openCommitHandle(table.lance);
        try {
          return await appendRows(handle, encoded);
        } finally {
          handle.sdk.close();
        }
      });
      await undoIfWidenedUnder(table.lance, encoded.schema, committed, rows.length);
      return committed;
    },
    {
      retryable: (err) => schemaMovedOrRetryable(table, err),
      beforeRetry: () => table.lance.sdk.checkoutLatest().catch(() => undefined),
    },
  );
  await ledger.recordAppend(table.lance, version, rows.length);
  return version;
}

/** A retryable conflict, or rows that no longer fit because the table schema changed since the plan. */
async function schemaMovedOrRetryable(table: NdTable, err: unknown): Promise<boolean> {
  if (isLanceNdError(err, "CommitConflict")) return err.retryable;
  if (!isLanceNdError(err, "SchemaMismatch")) return false;
  const before = table.tableSchema;
  await table.refresh();
  return String(table.tableSchema) !== String(before);
}
