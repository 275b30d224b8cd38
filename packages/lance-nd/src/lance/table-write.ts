import type { DataType, Field, RecordBatch } from "apache-arrow";
import * as arrow from "apache-arrow";
import { withCommitRetries } from "./commit-retry.js";
import { isLanceNdError, LanceNdError } from "../errors.js";
import { toSdkSchema, toSdkTable, toSdkType } from "./arrow-bridge.js";
import { checkRowsFit, fieldAtPath, missingPart } from "./schema-paths.js";
import { sdkCall } from "./sdk-call.js";
import type { LanceTable } from "./table-open.js";
import { readTableSchema } from "./table-read.js";
import { currentVersion } from "./table-versions.js";

/**
 * Appends record batches in one commit and returns the new version. Each
 * column of the rows must exist in the table with the same type; missing
 * nullable columns read as null. On a `CommitConflict` (e.g. a concurrent
 * schema change) the handle moves to the latest version, so the caller can
 * rebuild the rows for the new schema and try again.
 *
 * @throws LanceNdError `SchemaMismatch` for a column the table lacks or a type
 * that differs (lancedb would cast silently); `CommitConflict`; `WriterFailed`.
 */
export async function appendRows(table: LanceTable, rows: RecordBatch | readonly RecordBatch[]): Promise<number> {
  const batches = Array.isArray(rows) ? rows : [rows as RecordBatch];
  const first = batches[0];
  if (first === undefined) return currentVersion(table);
  checkRowsFit(table.uri, await readTableSchema(table), first.schema);
  try {
    const result = await sdkCall({ uri: table.uri, op: "append" }, () => table.sdk.add(toSdkTable(batches)));
    return result.version;
  } catch (err) {
    if (isLanceNdError(err, "CommitConflict")) await table.sdk.checkoutLatest().catch(() => undefined);
    throw err;
  }
}

/**
 * Adds all-null fields in one commit: new top-level columns, and new children
 * of existing struct columns at any depth (e.g. a new key in
 * `__global_attrs__` or in `sst.attrs`). `fields` may be whole fields that
 * partly exist: only the missing parts are added. Returns the new version,
 * or the current one when nothing is missing. Field metadata of new fields is
 * kept. Retried on the latest version when a concurrent commit preempts it
 * (commit-retry.ts).
 *
 * @throws LanceNdError `SchemaMismatch` for a field that exists with another type.
 */
export async function addNullFields(table: LanceTable, fields: readonly Field[]): Promise<number> {
  return retryOnConflict(table, () => addMissingFields(table, fields));
}

async function addMissingFields(table: LanceTable, fields: readonly Field[]): Promise<number> {
  const schema = await readTableSchema(table);
  const missing = fields.flatMap((field) => {
    const part = missingPart(
      table.uri,
      schema.fields.find((f) => f.name === field.name),
      field,
    );
    return part === undefined ? [] : [part];
  });
  if (missing.length === 0) return currentVersion(table);
  const result = await sdkCall({ uri: table.uri, op: "addColumns" }, () =>
    table.sdk.addColumns(toSdkSchema(new arrow.Schema(missing))),
  );
  return result.version;
}

/** One cast of {@link castColumns}: the field at a Lance dot path and its new type. */
export interface ColumnCast {
  /** `sst.values.item`, `__stats__:sst.min`, or a top-level column. */
  path: string;
  /** The new type; Lance only casts within a kind (Int32 -> Int64, Float32 -> Float64). */
  type: DataType;
}

/**
 * Casts fields in place, in one commit, then puts back the field metadata
 * that lancedb's `alterColumns` drops (of each field and of its top-level
 * column; a second commit when needed). Returns the new version. Retried on
 * the latest version when a concurrent commit preempts it (commit-retry.ts).
 *
 * Lance 12 gotcha: after one nested cast inside a struct column, every later
 * nested cast inside that same top-level column fails (`InvalidInput`
 * "projection supplied fewer column indices…"), even after appends or
 * compaction. So cast all leaves of one column (e.g. `__stats__:sst.min`
 * and `.max`) in one call, and widen a nested field at most once; a second
 * widen must rewrite the column. Top-level columns can be cast repeatedly.
 *
 * @throws LanceNdError `InvalidInput` for an unknown path or a type lancedb
 * cannot name (LargeUtf8); `SchemaMismatch` for a cast Lance cannot do.
 */
export async function castColumns(table: LanceTable, casts: readonly ColumnCast[]): Promise<number> {
  const column = casts.map((c) => c.path).join(", ");
  const context = { uri: table.uri, op: `castColumns to ${casts.map((c) => String(c.type)).join(", ")}`, column };
  return retryOnConflict(table, async () => {
    const before = await readTableSchema(table);
    for (const { path } of casts) {
      if (fieldAtPath(before, path) === undefined)
        throw new LanceNdError("InvalidInput", "no such field", { uri: table.uri, column: path });
    }
    const alterations = casts.map(({ path, type }) => ({ path, dataType: toSdkType(type) }));
    let version = (await sdkCall(context, () => table.sdk.alterColumns(alterations))).version;
    const after = await readTableSchema(table);
    const paths = new Set(casts.flatMap(({ path }) => [path.split(".")[0] ?? path, path]));
    const restores = [...paths].flatMap((p) => {
      const old = fieldAtPath(before, p)?.metadata ?? new Map<string, string>();
      const now = fieldAtPath(after, p)?.metadata ?? new Map<string, string>();
      return sameEntries(old, now) ? [] : [{ path: p, metadata: Object.fromEntries(old), replace: true }];
    });
    if (restores.length > 0) {
      version = (await sdkCall(context, () => table.sdk.updateFieldMetadata(restores))).version;
    }
    return version;
  });
}

/** {@link castColumns} for one field. */
export async function castColumn(table: LanceTable, path: string, type: DataType): Promise<number> {
  return castColumns(table, [{ path, type }]);
}

/**
 * Sets (merges) field metadata at a dot path; a `null` value removes a key,
 * `replace` swaps the whole map. Returns the new version.
 *
 * @throws LanceNdError `InvalidInput` for an unknown path.
 */
export async function setFieldMetadata(
  table: LanceTable,
  path: string,
  metadata: Record<string, string | null>,
  options: { replace?: boolean } = {},
): Promise<number> {
  const context = { uri: table.uri, op: "setFieldMetadata", column: path };
  const result = await sdkCall(context, () =>
    table.sdk.updateFieldMetadata([{ path, metadata, replace: options.replace === true }]),
  );
  return result.version;
}

/**
 * Adds table schema metadata keys, in one commit (through `addColumns` of an
 * empty schema that carries them: lancedb has no schema metadata call).
 * Keys already present with the same value are skipped; returns the current
 * version when nothing is new. Retried like {@link addNullFields}.
 *
 * @throws LanceNdError `InvalidInput` for a key present with another value:
 * Lance cannot change or remove a schema metadata key (it would silently
 * keep the old value).
 */
export async function addSchemaMetadata(table: LanceTable, entries: Record<string, string>): Promise<number> {
  return retryOnConflict(table, () => addMissingMetadata(table, entries));
}

async function addMissingMetadata(table: LanceTable, entries: Record<string, string>): Promise<number> {
  const existing = (await readTableSchema(table)).metadata;
  const added = new Map<string, string>();
  for (const [key, value] of Object.entries(entries)) {
    const old = existing.get(key);
    if (old === undefined) added.set(key, value);
    else if (old !== value) {
      throw new LanceNdError(
        "InvalidInput",
        `schema metadata key "${key}" is "${old}"; Lance cannot change it to "${value}"`,
        {
          uri: table.uri,
        },
      );
    }
  }
  if (added.size === 0) return currentVersion(table);
  const result = await sdkCall({ uri: table.uri, op: "addSchemaMetadata" }, () =>
    table.sdk.addColumns(toSdkSchema(new arrow.Schema([], added))),
  );
  return result.version;
}

// A schema change from a handle that has not seen a concurrent commit fails
// with a retryable conflict, and lancedb does not refresh the handle: move it
// to the latest version and plan the change again (the one retry policy of
// commit-retry.ts, within the budget of the operation that runs the change).
async function retryOnConflict(table: LanceTable, change: () => Promise<number>): Promise<number> {
  return withCommitRetries(change, {
    retryable: (err) => isLanceNdError(err, "CommitConflict") && err.retryable,
    beforeRetry: () => sdkCall({ uri: table.uri, op: "refresh" }, () => table.sdk.checkoutLatest()),
  });
}

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}
