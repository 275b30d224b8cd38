/** NdWriter: write nd record batches in several calls, in Lance adds of about a target size. */
import { encodeRows, planWrite, tableSchema as ndTableSchema, type WritePlan } from "@lance-nd/format";
import { decode, encodeSchema, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { context, trace, SpanStatusCode, type Span } from "@opentelemetry/api";
import { Schema } from "apache-arrow";
import type { Data, DataType, RecordBatch } from "apache-arrow";
import { castBatches } from "./cast-rows.js";
import { isLanceNdError, LanceNdError } from "./errors.js";
import { evolveFor } from "./evolve.js";
import { createTable, dropTable, openCommitHandle, openTable } from "./lance/table-open.js";
import { countRows, tableBytes } from "./lance/table-read.js";
import { currentVersion, deleteWhere, restoreVersion } from "./lance/table-versions.js";
import { appendRows } from "./lance/table-write.js";
import { parseWriteOptions, type AppendOptions, type ParsedWriteOptions, type WriteOptions } from "./options.js";
import { withPureErrors } from "./pure-errors.js";
import { asAppend } from "./schema-lock.js";
import { NdTable, checkWritable } from "./table.js";
import { inSpan } from "./tracing.js";
import { widenTable } from "./widen.js";

const MiB = 1024 * 1024;
/**
 * At most this many bytes of rows (in memory) in one Lance add, whatever the
 * disk/memory ratio: lancedb holds about 4.7x an add in memory while it
 * writes it (measured; README, "NdWriter sizing"), and a writer must stay
 * under 1 GiB above its baseline while it writes 1 GiB (bench/writer-memory.ts).
 */
export const MAX_ADD_MEMORY_BYTES = 64 * MiB;
/** At most this many bytes of rows in Lance adds at the same time (parallel adds did not write faster; README). */
export const MAX_INFLIGHT_MEMORY_BYTES = 64 * MiB;
/** At most this many bytes of rows buffered plus in flight (the seed's 8x the target, capped for memory). */
export const MAX_BUFFER_MEMORY_BYTES = 128 * MiB;
const MAX_COMMIT_ATTEMPTS = 10;

type State = "open" | "finished" | "aborted";

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
 *
 * @example
 * const writer = await NdWriter.create("data/sst.lance", { stats: true });
 * for (const batch of batches) await writer.write(batch);
 * const table = await writer.finish();
 */
export class NdWriter {
  readonly #uri: string;
  readonly #options: ParsedWriteOptions;
  readonly #span: Span;
  #table: NdTable | undefined;
  /** The table schema after the accepted rows: the table's, plus the fields of rows not yet written. */
  #schema: Schema | null;
  #pending: NdRecordBatch[] = [];
  #pendingBytes = 0;
  readonly #inflight = new Set<Promise<void>>();
  #inflightBytes = 0;
  /** Serialises table creation and schema changes; the adds themselves may overlap. */
  #schemaTurn: Promise<unknown> = Promise.resolve();
  /** The versions of the adds this writer committed. */
  readonly #versions: number[] = [];
  /** The versions of {@link #versions} whose rows a widen rewrote since (they now read as created by the rewrite). */
  readonly #rewrittenVersions: number[] = [];
  #rows = 0;
  #failure: LanceNdError | undefined;
  #state: State = "open";
  /** For an overwrite of an existing table: its version before the overwrite. */
  readonly #replacedVersion: number | undefined;
  #createdTable = false;
  #stableRowIds: boolean | undefined;
  #diskBytesBefore = 0;
  #memoryBytesWritten = 0;
  #ratio = 1;

  private constructor(uri: string, options: ParsedWriteOptions, table: NdTable | undefined, replacedVersion: number | undefined) {
    this.#uri = uri;
    this.#options = options;
    this.#table = table;
    this.#schema = table?.tableSchema ?? null;
    this.#replacedVersion = replacedVersion;
    this.#span = trace.getTracer("lance-nd").startSpan("lance_nd.write", {
      attributes: { "lance_nd.table.uri": uri, "lance_nd.mode": options.mode },
    });
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
    if (parsed.mode === "append") {
      const table = await NdTable.fromLance(await openTable(uri, parsed.storageOptions === undefined ? {} : { storageOptions: parsed.storageOptions }));
      return NdWriter.#forTable(table, parsed);
    }
    const existing = await openTable(uri, parsed.storageOptions === undefined ? {} : { storageOptions: parsed.storageOptions }).catch((err: unknown) => {
      if (isLanceNdError(err, "TableNotFound")) return undefined;
      throw err;
    });
    if (existing !== undefined && parsed.mode === "create") {
      existing.sdk.close();
      throw new LanceNdError("TableExists", "the table already exists (use mode \"append\" or \"overwrite\")", { uri });
    }
    const replaced = existing === undefined ? undefined : await currentVersion(existing);
    existing?.sdk.close();
    return new NdWriter(uri, parsed, undefined, replaced);
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
    const writer = new NdWriter(table.uri, options, table, undefined);
    writer.#diskBytesBefore = await tableBytes(table.lance);
    return writer;
  }

  /** The table uri. */
  get uri(): string {
    return this.#uri;
  }

  /** The bytes of rows (in memory) buffered or in adds that have not finished. */
  get bufferedBytes(): number {
    return this.#pendingBytes + this.#inflightBytes;
  }

  /** The versions this writer committed so far (one per Lance add). */
  get versions(): readonly number[] {
    return this.#versions;
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
    this.#checkUsable();
    const row = this.#rows;
    let plan = this.#plan(batch, row);
    if (plan.widenings.length > 0 && this.#onlyBuffered(plan.widenings.map((w) => w.column))) {
      // The variables are in buffered rows only: cast those, the table has nothing to widen.
      const casts = plan.widenings.map(({ column, from, to }) => ({ column, target: "values" as const, from, to }));
      this.#pending = castBatches(this.#pending, casts, "safe", this.#uri);
      this.#pendingBytes = this.#pending.reduce((n, b) => n + batchBytes(b), 0);
    } else if (plan.widenings.length > 0) {
      await this.#drain();
      const table = this.#table!;
      for (const { column, to } of plan.widenings) await this.#widen(table, column, to);
      this.#schema = table.tableSchema;
      plan = this.#plan(batch, row);
    }
    const [cast] = castBatches([batch], plan.casts, this.#options.casting, this.#uri, row);
    this.#schema = plan.schema;
    this.#pending.push(cast!);
    this.#pendingBytes += batchBytes(cast!);
    this.#rows++;
    if (this.#pendingBytes >= this.#addBytes()) await this.#flush();
    while (this.#inflight.size > 0 && this.#pendingBytes + this.#inflightBytes > this.#bufferBytes()) await Promise.race(this.#inflight);
    this.#throwIfFailed();
  }

  /**
   * Adds the rows of an Arrow record batch encoded with nd-arrow's `encode`
   * (one row per nd record batch); each row is checked as {@link write} does.
   *
   * @throws LanceNdError `InvalidInput` when the batch is not nd-arrow
   * encoded; as {@link write} otherwise (rows before a rejected one stay written).
   */
  async writeBatch(rows: RecordBatch): Promise<void> {
    this.#checkUsable();
    const batches = withPureErrors({ uri: this.#uri, row: this.#rows }, () => decode(rows, { nulls: "absent" }));
    for (const batch of batches) await this.write(batch);
  }

  /**
   * Writes the buffered rows and returns the table. With no row at all, a
   * create makes a table without columns. After a failed add it commits
   * nothing, removes the rows the writer committed, and throws.
   *
   * @throws LanceNdError `WriterFailed` (with the first error as cause);
   * `InvalidInput` after `finish` or `abort`.
   */
  async finish(): Promise<NdTable> {
    if (this.#state !== "open") this.#checkUsable();
    try {
      if (this.#failure === undefined) {
        await this.#drain();
        if (this.#table === undefined) await this.#guard(() => this.#create([]));
      }
      this.#throwIfFailed();
      this.#state = "finished";
      const table = this.#table!;
      await table.refresh();
      this.#endSpan();
      return table;
    } catch (err) {
      try {
        await this.#rollBack();
      } finally {
        this.#state = "aborted";
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
   */
  async abort(reason?: unknown): Promise<void> {
    if (this.#state !== "open") return;
    this.#state = "aborted";
    this.#pending = [];
    this.#pendingBytes = 0;
    try {
      await this.#rollBack();
      this.#endSpan(reason);
    } catch (err) {
      this.#endSpan(err);
      throw err;
    }
  }

  #plan(batch: NdRecordBatch, row: number): WritePlan {
    const options = { casting: this.#options.casting, ...this.#tableOptions() };
    return withPureErrors({ uri: this.#uri, row }, () => planWrite(this.#schema, encodeSchema([batch]), options));
  }

  /** True when no committed or in-flight row has any of the variables: only buffered rows do. */
  #onlyBuffered(columns: readonly string[]): boolean {
    if (this.#table === undefined) return true;
    if (this.#inflight.size > 0) return false;
    return columns.every((column) => !this.#table!.layout.arrays.has(column));
  }

  /** Widens for a row; a widen the table cannot take rejects the row, any other failure fails the writer. */
  async #widen(table: NdTable, column: string, to: DataType): Promise<void> {
    try {
      const { rewritten } = await widenTable(table, column, to);
      // A rewrite gives every row the rewrite's creation version: the rows of this writer's adds so far cannot be found by version any more.
      if (rewritten && this.#replacedVersion === undefined) this.#rewrittenVersions.push(...this.#versions);
    } catch (err) {
      if (isLanceNdError(err, "SchemaMismatch", "InvalidInput")) throw err;
      throw this.#fail(err);
    }
  }

  /** Memory bytes of rows per add: the target on disk over the learned disk/memory ratio, capped. */
  #addBytes(): number {
    return Math.max(1, Math.min(MAX_ADD_MEMORY_BYTES, this.#options.targetFragmentBytes / this.#ratio));
  }

  /** memory:// tables have one connection only, whose adds cannot tell their own versions apart: one add at a time there. */
  #parallelism(): number {
    return this.#uri.startsWith("memory://") ? 1 : this.#options.writeParallelism;
  }

  #bufferBytes(): number {
    return Math.min(8 * this.#addBytes(), MAX_BUFFER_MEMORY_BYTES);
  }

  /** Starts an add of the buffered rows; waits first while the adds in flight are at their limit. */
  async #flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const group = this.#pending;
    const bytes = this.#pendingBytes;
    this.#pending = [];
    this.#pendingBytes = 0;
    if (this.#table === undefined) {
      await this.#guard(() => this.#create(group));
      return;
    }
    while (
      this.#inflight.size > 0 &&
      (this.#inflight.size >= this.#parallelism() || this.#inflightBytes + bytes > MAX_INFLIGHT_MEMORY_BYTES)
    ) {
      await Promise.race(this.#inflight);
    }
    this.#throwIfFailed();
    this.#inflightBytes += bytes;
    const job = this.#guard(() => this.#append(group, bytes)).then(
      () => undefined,
      () => undefined,
    );
    const done = job.finally(() => {
      this.#inflight.delete(done);
      this.#inflightBytes -= bytes;
    });
    this.#inflight.add(done);
  }

  /** Writes everything buffered and waits for every add. */
  async #drain(): Promise<void> {
    await this.#flush();
    while (this.#inflight.size > 0) await Promise.race(this.#inflight);
    this.#throwIfFailed();
  }

  /** Creates (or overwrites) the table with the first rows, in one version. */
  async #create(group: NdRecordBatch[]): Promise<void> {
    const base = this.#schema ?? ndTableSchema(encodeSchema([]), this.#tableOptions());
    const extra = this.#options.schemaMetadata;
    const schema = extra === undefined ? base : new Schema(base.fields, new Map([...base.metadata, ...Object.entries(extra)]), base.dictionaries);
    const bytes = group.reduce((n, b) => n + batchBytes(b), 0);
    await this.#commitSpan(group.length, async () => {
      const rows = withPureErrors({ uri: this.#uri }, () => encodeRows(group, schema));
      const lance = await createTable(this.#uri, schema, group.length === 0 ? [] : rows, {
        mode: this.#options.mode === "overwrite" ? "overwrite" : "create",
        stableRowIds: true,
        ...(this.#options.storageOptions === undefined ? {} : { storageOptions: this.#options.storageOptions }),
      });
      this.#createdTable = true;
      this.#table = await NdTable.fromLance(lance);
      this.#schema = this.#table.tableSchema;
      const version = await currentVersion(lance);
      if (group.length > 0) await this.#committed(version, group.length, bytes);
    });
  }

  /**
   * Evolves the table for the rows and appends them in one Lance add. Tried
   * again on the latest version after a retryable conflict, or when the
   * table schema changed between the plan and the commit (another writer).
   */
  async #append(group: NdRecordBatch[], bytes: number): Promise<void> {
    const table = this.#table!;
    const options = { casting: this.#options.casting, ...this.#tableOptions() };
    await this.#commitSpan(group.length, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const plan = await this.#inSchemaTurn(() => evolveFor(table, encodeSchema(group), options));
          const rows = castBatches(group, plan.casts, this.#options.casting, this.#uri);
          const encoded = withPureErrors({ uri: this.#uri }, () => encodeRows(rows, plan.schema));
          const version = await asAppend(table.lance, async () => {
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
          await this.#committed(version, group.length, bytes);
          return;
        } catch (err) {
          if (attempt >= MAX_COMMIT_ATTEMPTS || !(await this.#worthRetry(err))) throw err;
          await table.lance.sdk.checkoutLatest().catch(() => undefined);
        }
      }
    });
  }

  /** A retryable conflict, or rows that no longer fit because the table schema changed since the plan. */
  async #worthRetry(err: unknown): Promise<boolean> {
    if (isLanceNdError(err, "CommitConflict")) return err.retryable;
    if (!isLanceNdError(err, "SchemaMismatch") || this.#table === undefined) return false;
    const before = this.#table.tableSchema;
    await this.#table.refresh();
    return String(this.#table.tableSchema) !== String(before);
  }

  #tableOptions(): { stats: boolean; columnDefaults?: ParsedWriteOptions["columnDefaults"]; columns?: ParsedWriteOptions["columns"] } {
    const { stats, columnDefaults, columns } = this.#options;
    return { stats, ...(columnDefaults === undefined ? {} : { columnDefaults }), ...(columns === undefined ? {} : { columns }) };
  }

  /** Records an add: its version, and the disk/memory ratio so far. */
  async #committed(version: number, rows: number, memoryBytes: number): Promise<void> {
    this.#versions.push(version);
    const lance = this.#table!.lance;
    if (this.#stableRowIds === undefined) {
      this.#stableRowIds = (await countRows(lance, `_row_created_at_version = ${version}`)) === rows;
    }
    this.#memoryBytesWritten += memoryBytes;
    const disk = (await tableBytes(lance)) - this.#diskBytesBefore;
    if (disk > 0 && this.#memoryBytesWritten > 0) this.#ratio = Math.min(64, Math.max(1 / 64, disk / this.#memoryBytesWritten));
  }

  async #inSchemaTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.#schemaTurn.then(work);
    this.#schemaTurn = turn.catch(() => undefined);
    return turn;
  }

  async #commitSpan(rows: number, work: () => Promise<void>): Promise<void> {
    await context.with(trace.setSpan(context.active(), this.#span), () =>
      inSpan("lance_nd.commit", this.#uri, work, { "lance_nd.rows": rows }),
    );
  }

  /** Runs a storage step; its first failure fails the writer. */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw this.#fail(err);
    }
  }

  /** Records the writer's first failure; returns the `WriterFailed` error to throw. */
  #fail(err: unknown): LanceNdError {
    this.#failure ??= isLanceNdError(err)
      ? err
      : new LanceNdError("WriterFailed", `a Lance write failed: ${err instanceof Error ? err.message : String(err)}`, { uri: this.#uri, cause: err });
    return this.#failedError();
  }

  #failedError(): LanceNdError {
    return new LanceNdError("WriterFailed", `the writer failed earlier: ${this.#failure?.message ?? ""}`, { uri: this.#uri, cause: this.#failure });
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failedError();
  }

  #checkUsable(): void {
    this.#throwIfFailed();
    if (this.#state !== "open") {
      throw new LanceNdError("InvalidInput", `the writer is ${this.#state === "finished" ? "finished" : "aborted"}`, { uri: this.#uri });
    }
  }

  /** Waits for the adds in flight, then removes what this writer committed. */
  async #rollBack(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.race(this.#inflight);
    const table = this.#table;
    if (table === undefined || this.#versions.length === 0) return;
    const lance = table.lance;
    if (this.#replacedVersion !== undefined) {
      await restoreVersion(lance, this.#replacedVersion);
    } else if (this.#stableRowIds === false) {
      throw new LanceNdError(
        "WriterFailed",
        `cannot remove the rows of versions ${this.#versions.join(", ")}: the table has no stable row ids (it was not created by lance-nd's write)`,
        { uri: this.#uri, cause: this.#failure },
      );
    } else {
      const rewritten = new Set(this.#rewrittenVersions);
      const findable = this.#versions.filter((v) => !rewritten.has(v));
      if (findable.length > 0) await deleteWhere(lance, `_row_created_at_version IN (${findable.join(", ")})`);
      if (this.#createdTable && (await countRows(lance)) === 0) {
        await dropTable(lance);
        this.#table = undefined;
      }
      if (rewritten.size > 0) {
        this.#versions.length = 0;
        throw new LanceNdError(
          "WriterFailed",
          `cannot remove the rows of versions ${[...rewritten].join(", ")}: a widen (casting "promote") rewrote the table after them, and their rows now read as created by the rewrite; the rows of later versions were removed`,
          { uri: this.#uri, cause: this.#failure },
        );
      }
    }
    this.#versions.length = 0;
  }

  #endSpan(err?: unknown): void {
    this.#span.setAttribute("lance_nd.rows", this.#rows);
    this.#span.setAttribute("lance_nd.versions", this.#versions.length);
    if (err !== undefined) {
      this.#span.recordException(err instanceof Error ? err : String(err));
      this.#span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    }
    this.#span.end();
  }
}

/** The bytes of a row's values in memory (values, offsets and validity of each array). */
export function batchBytes(batch: NdRecordBatch): number {
  let bytes = 0;
  for (const [, array] of batch.arrays()) for (const data of array.values.data) bytes += dataBytes(data);
  return bytes;
}

function dataBytes(data: Data): number {
  let bytes = (data.values?.byteLength ?? 0) + (data.valueOffsets?.byteLength ?? 0) + (data.nullBitmap?.byteLength ?? 0);
  for (const child of data.children) bytes += dataBytes(child);
  return bytes;
}
