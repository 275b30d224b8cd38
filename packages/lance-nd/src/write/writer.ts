/**
 * NdWriter: write nd record batches in several calls, in Lance adds of about
 * a target size. The write path is a pipeline: each row is checked and cast
 * (`planWrite`, cast-rows.ts), buffered (add-queue.ts, sized by
 * add-sizing.ts), committed as one add (add-commit.ts, under the retry
 * policy of commit-retry.ts), and recorded in the commit ledger
 * (commit-ledger.ts), which undoes the writer's commits when it fails.
 */
import { planWrite, type WritePlan } from "@lance-nd/format";
import { decode, encodeSchema, type NdRecordBatch } from "@lance-nd/nd-arrow";
import type { DataType, RecordBatch, Schema } from "apache-arrow";
import { commitAppend, commitCreate, SchemaTurns } from "./add-commit.js";
import { AddQueue, type AddGroup } from "./add-queue.js";
import { AddSizer } from "./add-sizing.js";
import { castBatches } from "./cast-rows.js";
import { CommitLedger } from "./commit-ledger.js";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { openTable } from "../lance/table-open.js";
import { currentVersion } from "../lance/table-versions.js";
import { addParallelism } from "./add-parallelism.js";
import {
  parseWriteOptions,
  planOptions,
  type AppendOptions,
  type ParsedWriteOptions,
  type WriteOptions,
} from "./write-options.js";
import { withPureErrors } from "../pure-errors.js";
import { NdTable } from "../table.js";
import { checkWritable } from "../table-check.js";
import { WriteSpan } from "../tracing.js";
import { widenTable } from "../widen/widen.js";
import { WriterState } from "./writer-state.js";

export { batchBytes } from "./add-sizing.js";

/**
 * Writes nd record batches to a table in several calls. It buffers rows and
 * writes them as Lance adds of about `targetFragmentBytes` (128 MiB) on disk,
 * learning the disk/memory ratio from the adds it made; it never splits a
 * row, and `write` waits while the buffer is full. Each add is one Lance
 * version (lancedb cannot commit several fragments in one version), so
 * readers can see the rows of earlier adds before `finish`.
 *
 * A row that fails a check (e.g. a type change under casting "no") is
 * rejected with `SchemaMismatch` and the writer stays usable. A failed Lance
 * add makes every later call throw `WriterFailed` (the first error as
 * `cause`); `finish` then commits nothing more and, like `abort`, removes
 * the rows the writer committed, so a failed writer leaves no rows behind.
 * When that removal cannot complete, the error is a
 * `RollbackIncompleteError` naming what is left and how to undo it.
 *
 * @example
 * const writer = await NdWriter.create("data/sst.lance", { stats: true });
 * for (const batch of batches) await writer.write(batch);
 * const table = await writer.finish();
 */
export class NdWriter {
  readonly #uri: string;
  readonly #options: ParsedWriteOptions;
  readonly #span: WriteSpan;
  readonly #queue: AddQueue;
  readonly #ledger: CommitLedger;
  readonly #turns = new SchemaTurns();
  #table: NdTable | undefined;
  /** The table schema after the accepted rows: the table's, plus the fields of rows not yet written. */
  #schema: Schema | null;
  #rows = 0;
  readonly #state: WriterState;

  private constructor(
    uri: string,
    options: ParsedWriteOptions,
    table: NdTable | undefined,
    replacedVersion: number | undefined,
    sizer: AddSizer,
  ) {
    this.#uri = uri;
    this.#state = new WriterState(uri);
    this.#options = options;
    this.#table = table;
    this.#schema = table?.tableSchema ?? null;
    this.#ledger = new CommitLedger(uri, replacedVersion);
    this.#queue = new AddQueue(sizer);
    this.#span = new WriteSpan(uri, options.mode);
  }

  /**
   * A writer of a new table at `uri` (mode "create", the default), of a
   * replacement ("overwrite": the old rows stay readable until the first
   * add), or of an existing table ("append"). The table is created by the
   * first add (or by `finish` when no row was written).
   *
   * @throws LanceNdError `InvalidInput` for bad options or uri;
   * `TableExists` ("create" of an existing table); `TableNotFound` ("append").
   */
  static async create(uri: string, options: WriteOptions = {}): Promise<NdWriter> {
    const parsed = parseWriteOptions(options, uri);
    const storage = parsed.storageOptions === undefined ? {} : { storageOptions: parsed.storageOptions };
    if (parsed.mode === "append")
      return NdWriter.#forTable(await NdTable.fromLance(await openTable(uri, storage)), parsed);
    const existing = await openTable(uri, storage).catch((err: unknown) => {
      if (isLanceNdError(err, "TableNotFound")) return undefined;
      throw err;
    });
    if (existing !== undefined && parsed.mode === "create") {
      existing.sdk.close();
      throw new LanceNdError("TableExists", 'the table already exists (use mode "append" or "overwrite")', { uri });
    }
    const replaced = existing === undefined ? undefined : await currentVersion(existing);
    existing?.sdk.close();
    return new NdWriter(
      uri,
      parsed,
      undefined,
      replaced,
      new AddSizer(parsed.targetFragmentBytes, addParallelism(uri, parsed), parsed.memoryBudgetBytes),
    );
  }

  /**
   * A writer that appends to `table` (its latest version).
   *
   * @throws LanceNdError `InvalidInput` for bad options, a `table` that is
   * not an NdTable or a read-only view.
   */
  static async append(table: NdTable, options: AppendOptions = {}): Promise<NdWriter> {
    checkWritable(table, "append");
    const parsed = parseWriteOptions(options, table.uri, true);
    await table.refresh();
    return NdWriter.#forTable(table, parsed);
  }

  static async #forTable(table: NdTable, options: ParsedWriteOptions): Promise<NdWriter> {
    const sizer = new AddSizer(
      options.targetFragmentBytes,
      addParallelism(table.uri, options),
      options.memoryBudgetBytes,
    );
    await sizer.startAt(table.lance);
    return new NdWriter(table.uri, options, table, undefined, sizer);
  }

  /** The table uri. */
  get uri(): string {
    return this.#uri;
  }

  /** The bytes of rows (in memory) buffered or in adds that have not finished. */
  get bufferedBytes(): number {
    return this.#queue.bufferedBytes;
  }

  /** The versions this writer committed so far (one per Lance add). */
  get versions(): readonly number[] {
    return this.#ledger.versions;
  }

  /**
   * Adds one row. It is checked against the table (and the rows before it)
   * and cast as the casting mode says; it is written with the next add.
   * Under "promote", a row that needs a wider type makes the writer commit
   * the rows before it, then widen the table.
   *
   * @throws LanceNdError `SchemaMismatch` (the row is rejected, the writer
   * stays usable); `WriterFailed` after a failed add; `InvalidInput` after
   * `finish` or `abort`.
   */
  async write(batch: NdRecordBatch): Promise<void> {
    this.#state.checkUsable();
    const row = this.#rows;
    let plan = this.#plan(batch, row);
    if (plan.widenings.length > 0 && this.#onlyBuffered(plan.widenings.map((w) => w.column))) {
      // The variables are in buffered rows only: cast those, the table has nothing to widen.
      const casts = plan.widenings.map(({ column, from, to }) => ({ column, target: "values" as const, from, to }));
      this.#queue.rewritePending((rows) => castBatches(rows, casts, "safe", this.#uri));
    } else if (plan.widenings.length > 0) {
      await this.#drain();
      const table = this.#table!;
      for (const { column, to } of plan.widenings) await this.#widen(table, column, to);
      this.#schema = table.tableSchema;
      plan = this.#plan(batch, row);
    }
    const [cast] = castBatches([batch], plan.casts, this.#options.casting, this.#uri, row);
    this.#schema = plan.schema;
    this.#rows++;
    // An add holds at most an add's bytes, unless one row alone is larger (README, "NdWriter sizing").
    if (!this.#queue.fits(cast!)) await this.#flush();
    if (this.#queue.push(cast!)) await this.#flush();
    await this.#queue.waitForRoom();
    this.#state.throwIfFailed();
  }

  /**
   * Adds the rows of an Arrow record batch encoded with nd-arrow's `encode`
   * (one row per nd record batch); each row is checked as {@link write} does.
   *
   * @throws LanceNdError `InvalidInput` when the batch is not nd-arrow
   * encoded; as {@link write} otherwise (rows before a rejected one stay written).
   */
  async writeBatch(rows: RecordBatch): Promise<void> {
    this.#state.checkUsable();
    const batches = withPureErrors({ uri: this.#uri, row: this.#rows }, () => decode(rows, { nulls: "absent" }));
    for (const batch of batches) await this.write(batch);
  }

  /**
   * Writes the buffered rows and returns the table. With no row at all, a
   * create makes a table without columns. After a failed add it commits
   * nothing, removes the rows the writer committed, and throws.
   *
   * @throws LanceNdError `WriterFailed` (with the first error as cause; a
   * `RollbackIncompleteError` when the removal could not complete);
   * `InvalidInput` after `finish` or `abort`.
   */
  async finish(): Promise<NdTable> {
    return (await this.finishWith(async () => undefined)).table;
  }

  /**
   * @internal {@link finish}, with one more step of the same operation run
   * after the last add (e.g. deleting the rows the new ones replace:
   * `replaceRows`). `step` gets the table and the versions of the writer's
   * adds; when it fails, the writer's rows are removed as after a failed add.
   */
  async finishWith<T>(
    step: (table: NdTable, versions: readonly number[]) => Promise<T>,
  ): Promise<{ table: NdTable; result: T }> {
    if (this.#state.phase !== "open") this.#state.checkUsable();
    try {
      if (this.#state.failure === undefined) {
        await this.#drain();
        if (this.#table === undefined) await this.#state.guard(() => this.#create({ rows: [], bytes: 0 }));
      }
      this.#state.throwIfFailed();
      const table = this.#table!;
      const result = await this.#state.guard(() => step(table, this.#ledger.versions));
      // Every commit of the operation landed: a failure from here on undoes nothing (commit-ledger.ts).
      this.#ledger.settle();
      this.#state.end("finished");
      await table.refresh();
      this.#endSpan();
      return { table, result };
    } catch (err) {
      try {
        await this.#rollBack();
      } finally {
        this.#state.end("aborted");
        this.#endSpan(err);
      }
      throw err;
    }
  }

  /**
   * Drops the buffered rows and removes the rows the writer committed
   * (a created table that holds no other rows is removed too; an overwrite
   * gets the old version back, in a new version). Does nothing after
   * `finish` or a first `abort`. `reason` (e.g. the error that made you
   * stop) is recorded on the writer's `lance_nd.write` span.
   *
   * @throws RollbackIncompleteError when the removal could not complete.
   */
  async abort(reason?: unknown): Promise<void> {
    if (this.#state.phase !== "open") return;
    this.#state.end("aborted");
    this.#queue.clear();
    try {
      await this.#rollBack();
      this.#endSpan(reason);
    } catch (err) {
      this.#endSpan(err);
      throw err;
    }
  }

  #plan(batch: NdRecordBatch, row: number): WritePlan {
    return withPureErrors({ uri: this.#uri, row }, () =>
      planWrite(this.#schema, encodeSchema([batch]), planOptions(this.#options)),
    );
  }

  /** True when no committed or in-flight row has any of the variables: only buffered rows do. */
  #onlyBuffered(columns: readonly string[]): boolean {
    if (this.#table === undefined) return true;
    if (this.#queue.busy) return false;
    return columns.every((column) => !this.#table!.layout.arrays.has(column));
  }

  /** Widens for a row; a widen the table cannot take rejects the row, any other failure fails the writer. */
  async #widen(table: NdTable, column: string, to: DataType): Promise<void> {
    try {
      if ((await widenTable(table, column, to)).rewritten) this.#ledger.recordRewrite();
    } catch (err) {
      if (isLanceNdError(err, "SchemaMismatch", "InvalidInput")) throw err;
      throw this.#state.fail(err);
    }
  }

  /** Starts an add of the buffered rows (the first one creates the table); waits first while the adds in flight are at their limit. */
  async #flush(): Promise<void> {
    const group = this.#queue.take();
    if (group === undefined) return;
    if (this.#table === undefined) {
      await this.#state.guard(() => this.#create(group));
      return;
    }
    await this.#queue.waitForSlot(group.bytes);
    this.#state.throwIfFailed();
    this.#queue.start(() => this.#state.guard(() => this.#append(this.#table!, group)), group.bytes);
  }

  /** Writes everything buffered and waits for every add. */
  async #drain(): Promise<void> {
    await this.#flush();
    await this.#queue.settle();
    this.#state.throwIfFailed();
  }

  /** Creates (or overwrites) the table with the first rows, in one version. */
  async #create(group: AddGroup): Promise<void> {
    await this.#span.commit(group.rows.length, async () => {
      this.#table = await commitCreate(this.#uri, this.#schema, group.rows, this.#options, this.#ledger);
      this.#schema = this.#table.tableSchema;
      if (group.rows.length > 0) await this.#queue.sizer.learn(this.#table.lance, group.bytes);
    });
  }

  /** Appends a group of rows in one add, and learns from its size on disk. */
  async #append(table: NdTable, group: AddGroup): Promise<void> {
    await this.#span.commit(group.rows.length, async () => {
      await commitAppend(table, group.rows, this.#options, this.#ledger, this.#turns);
      await this.#queue.sizer.learn(table.lance, group.bytes);
    });
  }

  /** Waits for the adds in flight, then undoes what this writer committed (the commit ledger). */
  async #rollBack(): Promise<void> {
    await this.#queue.settle();
    if (this.#table === undefined) return;
    if ((await this.#ledger.rollBack(this.#table.lance, this.#state.failure)) === "dropped") this.#table = undefined;
  }

  #endSpan(err?: unknown): void {
    this.#span.end(this.#rows, this.#ledger.versions.length, err);
  }
}
