import { connect, type Connection, type Table as SdkTable } from "@lancedb/lancedb";
import type { RecordBatch, Schema } from "apache-arrow";
import { LanceNdError } from "../errors.js";
import { toSdkSchema, toSdkTable } from "./arrow-bridge.js";
import { sdkCall } from "./sdk-call.js";
import { commitHandleSession, connectionSession } from "./session.js";
import { parseTableUri, type TableLocation } from "./uri.js";

/**
 * The Lance file version of new tables. Nested schema evolution (new struct
 * children) needs 2.2 or later; 2.2 is also lancedb 0.39's "stable" default,
 * and 2.3 is flagged unstable by Lance.
 */
const LANCE_FILE_VERSION = "2.2";

/** Options for reaching a table on an object store (`aws_region`, `aws_access_key_id`, …), passed to lancedb as is. */
export interface StorageOptions {
  /** Object store options, e.g. `{ region: "eu-west-1" }`; see lancedb's storage docs. */
  storageOptions?: Record<string, string>;
}

/** An open Lance table: the SDK handle plus where it lives. */
export interface LanceTable {
  /** The table uri as given to {@link openTable} or {@link createTable}. */
  readonly uri: string;
  /** The uri split into database uri and table name. */
  readonly location: TableLocation;
  /** The object store options the table was opened with. */
  readonly storageOptions: Record<string, string> | undefined;
  /** The lancedb connection of the table's folder. */
  readonly connection: Connection;
  /** The lancedb table handle. */
  readonly sdk: SdkTable;
  /** The version a read-only view is pinned to; undefined for a handle that tracks the latest version. */
  readonly pinnedVersion: number | string | undefined;
  /** The Lance branch the handle reads and writes; null for `main`. */
  readonly branch: string | null;
}

/** Options of {@link openTable}. */
export interface OpenTableOptions extends StorageOptions {
  /** A Lance branch to open instead of `main` (README.md, "Version control"). */
  branch?: string;
}

/** Options of {@link createTable}. */
export interface CreateTableOptions extends StorageOptions {
  /** "create" (default) fails with `TableExists` when the table exists; "overwrite" replaces it in a new version. */
  mode?: "create" | "overwrite";
  /**
   * Give the rows stable row ids (`new_table_enable_stable_row_ids`), so
   * that `_row_created_at_version` tells which commit added a row (without
   * them it reads 1 for every row) and row ids survive compaction.
   */
  stableRowIds?: boolean;
}

// memory:// databases live inside one lancedb connection: a second
// connect("memory://") sees none of the tables of the first, so they are shared here.
const memoryConnections = new Map<string, Promise<Connection>>();

/**
 * Connects to the database (folder) that holds a table, with strong read
 * consistency (`readConsistencyInterval: 0`): each call on a handle first
 * looks for newer versions. lancedb's default never looks, so a handle
 * misses other handles' commits, and an append from such a stale handle after
 * a nested cast commits rows that make the table unreadable. Every
 * connection has a session of its own with bounded caches (session.ts).
 * memory:// connections are shared per database uri.
 */
async function connectTo(location: TableLocation, storageOptions?: Record<string, string>): Promise<Connection> {
  const context = { uri: location.uri, op: "connect" };
  const options = {
    readConsistencyInterval: 0,
    session: connectionSession(),
    ...(storageOptions === undefined ? {} : { storageOptions }),
  };
  if (!location.dbUri.startsWith("memory://")) {
    return sdkCall(context, () => connect(location.dbUri, options));
  }
  let connection = memoryConnections.get(location.dbUri);
  if (connection === undefined) {
    connection = sdkCall(context, () => connect(location.dbUri, options));
    memoryConnections.set(location.dbUri, connection);
  }
  return connection;
}

/**
 * Opens the latest version of the table at `uri`.
 *
 * @throws LanceNdError `TableNotFound` when there is no table; `InvalidInput` for a bad uri.
 * @example
 * const table = await openTable("s3://bucket/data/sst.lance", { storageOptions: { region: "eu-west-1" } });
 */
export async function openTable(uri: string, options: OpenTableOptions = {}): Promise<LanceTable> {
  const location = parseTableUri(uri);
  const connection = await connectTo(location, options.storageOptions);
  const place = { uri, location, storageOptions: options.storageOptions, connection, branch: options.branch ?? null };
  return { ...place, sdk: await openSdkTable(place, connection, "open"), pinnedVersion: undefined };
}

/**
 * The one way lance-nd opens a lancedb handle of a table it already has:
 * on the table's branch (`main` when `branch` is null), through
 * `connection` (the table's own by default). Every reopen (commit handles,
 * checked-out versions) goes through it, so a branch handle never reaches
 * `main`.
 */
export async function openSdkTable(
  table: Pick<LanceTable, "uri" | "location" | "storageOptions" | "branch">,
  connection: Connection,
  op: string,
): Promise<SdkTable> {
  return sdkCall({ uri: table.uri, op }, () =>
    connection.openTable(table.location.tableName, undefined, {
      ...(table.storageOptions === undefined ? {} : { storageOptions: table.storageOptions }),
      ...(table.branch === null ? {} : { branch: table.branch }),
    }),
  );
}

/**
 * Creates (or overwrites) the table at `uri` with Lance file version
 * {@link LANCE_FILE_VERSION}, `schema` (its field and schema metadata are
 * kept) and optional first rows, in one version.
 *
 * @throws LanceNdError `TableExists` in "create" mode when the table exists;
 * `SchemaMismatch` when `firstRows` do not fit `schema`.
 * @example
 * const table = await createTable("data/sst.lance", schema, [batch], { mode: "overwrite" });
 */
export async function createTable(
  uri: string,
  schema: Schema,
  firstRows: RecordBatch | readonly RecordBatch[] = [],
  options: CreateTableOptions = {},
): Promise<LanceTable> {
  const location = parseTableUri(uri);
  const connection = await connectTo(location, options.storageOptions);
  const rows = Array.isArray(firstRows) ? firstRows : [firstRows as RecordBatch];
  for (const [i, batch] of rows.entries()) checkSameFields(uri, schema, batch.schema, i);
  const createOptions = {
    mode: options.mode ?? "create",
    storageOptions: {
      ...options.storageOptions,
      new_table_data_storage_version: LANCE_FILE_VERSION,
      ...(options.stableRowIds === true ? { new_table_enable_stable_row_ids: "true" } : {}),
    },
  };
  const op = createOptions.mode === "create" ? "create" : "overwrite";
  const sdk = await sdkCall({ uri, op }, () =>
    rows.length === 0
      ? connection.createEmptyTable(location.tableName, toSdkSchema(schema), createOptions)
      : connection.createTable(location.tableName, toSdkTable(rows, schema), createOptions),
  );
  return {
    uri,
    location,
    storageOptions: options.storageOptions,
    connection,
    sdk,
    pinnedVersion: undefined,
    branch: null,
  };
}

/**
 * Replaces every row of `table` with `rows` under `schema` (field and
 * schema metadata kept) in one new version ON THE TABLE'S BRANCH, and
 * returns that version. `main` is overwritten as lancedb's `createTable`
 * in "overwrite" mode does; a branch by an `add` in "overwrite" mode on a
 * handle of the branch, which may change the schema too (SDK-NOTES.md,
 * section 15). The version is read from a handle without read consistency
 * checks (see {@link openCommitHandle}).
 */
export async function overwriteTable(table: LanceTable, schema: Schema, rows: readonly RecordBatch[]): Promise<number> {
  if (table.branch === null) {
    const created = await createTable(table.uri, schema, rows, {
      mode: "overwrite",
      ...(table.storageOptions === undefined ? {} : { storageOptions: table.storageOptions }),
    });
    return sdkCall({ uri: table.uri, op: "version" }, () => created.sdk.version()).finally(() => created.sdk.close());
  }
  if (rows.length === 0) {
    throw new LanceNdError(
      "InvalidInput",
      `overwrite of branch "${table.branch}" with no rows: lancedb's add needs at least one row`,
      { uri: table.uri },
    );
  }
  for (const [i, batch] of rows.entries()) checkSameFields(table.uri, schema, batch.schema, i);
  const handle = await openCommitHandle(table);
  try {
    await sdkCall({ uri: table.uri, op: "overwrite" }, () =>
      handle.sdk.add(toSdkTable([...rows], schema), { mode: "overwrite" }),
    );
    return await sdkCall({ uri: table.uri, op: "version" }, () => handle.sdk.version());
  } finally {
    handle.sdk.close();
  }
}

function checkSameFields(uri: string, schema: Schema, rowsSchema: Schema, row: number): void {
  const expected = schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(", ");
  const actual = rowsSchema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(", ");
  if (expected !== actual) {
    throw new LanceNdError(
      "SchemaMismatch",
      `record batch ${row} has fields [${actual}], the table schema has [${expected}]`,
      { uri },
    );
  }
}

/**
 * Removes the table at `table.uri` with all its versions (lancedb's
 * `dropTable`); the handle is closed.
 *
 * @throws LanceNdError `TableNotFound` when it is already gone.
 */
export async function dropTable(table: LanceTable): Promise<void> {
  table.sdk.close();
  await sdkCall({ uri: table.uri, op: "drop" }, () => table.connection.dropTable(table.location.tableName));
}

/**
 * A handle for one commit: the latest version, from a connection WITHOUT
 * read consistency checks (memory:// shares its only connection). lancedb's
 * `add` returns the handle's version after the call; a handle that checks
 * for newer versions (as {@link connectTo}'s do) reports the latest one,
 * which a concurrent commit may have made, so the commit version of an add
 * is only exact on such a handle (measured: test/write/writer.test.ts). The
 * commit handles of the process share one session (session.ts). Open it
 * right before the commit (it does not see later schema changes) and close
 * it after with `handle.sdk.close()`.
 */
export async function openCommitHandle(table: LanceTable): Promise<LanceTable> {
  const connection = table.location.dbUri.startsWith("memory://")
    ? table.connection
    : await sdkCall({ uri: table.uri, op: "connect" }, () =>
        connect(table.location.dbUri, {
          session: commitHandleSession(),
          ...(table.storageOptions === undefined ? {} : { storageOptions: table.storageOptions }),
        }),
      );
  return { ...table, connection, sdk: await openSdkTable(table, connection, "open"), pinnedVersion: undefined };
}
