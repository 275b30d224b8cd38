/**
 * What keeps an import whole: the CF mode a table was created with, the ids
 * already in it, a failed create that leaves no folder behind (CLI README,
 * "Importing again"), the claim (writer locks and mark) every write of
 * an import runs under (CLI README, "Interrupting an import"), and the
 * bound on what the files declare (CLI README, "Declared sizes").
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { col, NdWriter, RollbackIncompleteError, scan } from "lance-nd";
import type { Expr, NdTable, WriteOptions } from "lance-nd";
import { claimImport, replaceRowsWith, tableCfMode, writeAll, type CfMode } from "lance-nd/internal";
import { CliError } from "../errors.js";
import { threeDigits } from "../output/disk-size.js";
import type { ImportInterrupt } from "./import-interrupt.js";
import type { ImportSource } from "./import-source.js";

export { CF_MODE_KEY, tableCfMode } from "lance-nd/internal";

/** `InvalidArgument` naming both modes when `mode` is not the table's. */
export function checkCfMode(table: NdTable, mode: CfMode): void {
  const recorded = tableCfMode(table);
  if (recorded !== mode) {
    throw new CliError(
      "InvalidArgument",
      `${table.uri} was created with --cf ${recorded}; this import uses --cf ${mode} (import with --cf ${recorded}, or into a new table)`,
    );
  }
}

/** GiB of values an import takes unless `--max-size` says more: a file may declare far more than it holds. */
export const DEFAULT_MAX_IMPORT_GIB = 256;

/**
 * Refuses (`InvalidArgument`), before anything is written, a file whose
 * variables declare more than `maxGiB` GiB of values: a netCDF-4 variable
 * or a Zarr array of 10^12 cells never written is fill from end to end,
 * and importing it would write fill values for days. Names the file, its
 * size, its largest variable and the option that raises the limit.
 */
export function checkDeclaredSize(files: readonly ImportSource[], maxGiB: number): void {
  const limit = maxGiB * 2 ** 30;
  for (const file of files) {
    if (file.bytes <= limit) continue;
    const cells = (v: ImportSource["variables"][number]) => v.dims.reduce((n, d) => n * d.size, 1);
    const largest = file.variables.reduce((a, b) => (cells(b) > cells(a) ? b : a));
    const shape = largest.dims.map((d) => `${d.name}=${d.size}`).join(", ");
    throw new CliError(
      "InvalidArgument",
      `${file.path} declares ${gib(file.bytes)} of values (its largest variable "${largest.name}" has ${shape}), over the ${gib(limit)} an import takes; unwritten chunks would be imported as fill values (--max-size <GiB> raises the limit)`,
    );
  }
}

/** Bytes as GiB, or TiB past 1024 GiB. */
function gib(bytes: number): string {
  const value = bytes / 2 ** 30;
  return value >= 1024 ? `${threeDigits(value / 1024)} TiB` : `${threeDigits(value)} GiB`;
}

/** The ones of `ids` that rows of the table already have. */
export async function existingIds(table: NdTable, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = new Set<string>();
  for await (const batch of scan(table)
    .project([])
    .filterExpr(col("__global_attrs__.id").isIn([...ids]))) {
    const id = batch.globalAttr("id");
    if (typeof id === "string") found.add(id);
  }
  return ids.filter((id) => found.has(id));
}

/**
 * Runs a create; when it fails and the table folder did not exist before,
 * the folder goes too (a failed create leaves nothing behind).
 */
export async function removingNewFolder<T>(uri: string, create: boolean, run: () => Promise<T>): Promise<T> {
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
  const existed = !create || !local || existsSync(uri);
  try {
    return await run();
  } catch (err) {
    if (!existed) await rm(uri, { recursive: true, force: true });
    throw err;
  }
}

/** What {@link writeClaimed} writes: the import's mode, table, ids and rows. */
export interface ClaimedWrite {
  mode: "create" | "append" | "overwrite" | "replace";
  uri: string;
  /** The open table (append, replace). */
  table: NdTable | undefined;
  branch: string | null;
  ids: readonly string[];
  /** Milliseconds to wait for an id another import writes (0: fail at once). */
  waitMs: number;
  /** Runs once the claim is held, before anything is written (e.g. the check that an append's ids are new). */
  afterClaim: (() => Promise<void>) | undefined;
  /** The rows a replace replaces (default: the rows of `ids`; `--concat`: the rows of the files given). */
  replaceWhere?: Expr | undefined;
  options: WriteOptions;
}

/**
 * Writes an import's rows under its claim (lance-nd README, "Guarantees"):
 * the writer locks of its ids and its mark, taken before the first commit
 * (a create: right after it, as there is no table before), released when
 * the write ended. A signal (`interrupt`) stops the rows before the next
 * one and the last step before it commits; the write then rolls back. A
 * rollback that could not complete keeps the mark, for `check --repair`.
 * Returns the table and the rows a replace deleted.
 */
export async function writeClaimed(
  write: ClaimedWrite,
  rows: AsyncIterable<NdRecordBatch>,
  interrupt: ImportInterrupt,
): Promise<{ table: NdTable; replaced: number }> {
  const claimOptions = {
    ...(write.options.storageOptions === undefined ? {} : { storageOptions: write.options.storageOptions }),
    mode: write.mode,
    branch: write.branch,
    ids: write.ids,
    wait: { timeoutMs: write.waitMs, signal: interrupt.abortSignal },
  };
  let claim = write.mode === "create" ? undefined : await claimImport(write.uri, claimOptions);
  let writer: NdWriter | undefined;
  async function* claimed(): AsyncGenerator<NdRecordBatch> {
    for await (const row of rows) {
      interrupt.throwIfInterrupted();
      yield row;
      // The first add created the table: mark the import on that version before anything else commits.
      if (claim === undefined && writer!.versions.length > 0) claim = await claimImport(write.uri, claimOptions);
    }
    interrupt.throwIfInterrupted();
  }
  const beforeLastCommit = async () => interrupt.throwIfInterrupted();
  try {
    await write.afterClaim?.();
    if (write.mode === "create" || write.mode === "overwrite")
      writer = await NdWriter.create(write.uri, { ...write.options, mode: write.mode });
    if (write.mode === "replace") {
      const id = write.replaceWhere ?? col("__global_attrs__.id").isIn([...write.ids]);
      const hooks = { afterAppend: beforeLastCommit };
      const done = await replaceRowsWith(write.table!, claimed(), id, write.options, hooks);
      await claim?.complete();
      return { table: done.table, replaced: done.deleted };
    }
    const appender = writer ?? (await NdWriter.append(write.table!, write.options));
    const { table } = await writeAll(appender, claimed(), beforeLastCommit);
    await claim?.complete();
    return { table, replaced: 0 };
  } catch (err) {
    if (!(err instanceof RollbackIncompleteError)) await claim?.release();
    throw err;
  }
}
