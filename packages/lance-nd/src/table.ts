import type { Schema } from "apache-arrow";
import { ndSchema, validateTableSchema, type TableLayout } from "@lance-nd/format";
import { LanceNdError } from "./errors.js";
import { parseOpenOptions } from "./open-options.js";
import { withPureErrors } from "./pure-errors.js";
import { countRows } from "./lance/table-read.js";
import type { LanceTable, StorageOptions } from "./lance/table-open.js";
import { openTableOnBranch } from "./lance/table-refs.js";
import { currentVersion } from "./lance/table-versions.js";
import { readTableSchema } from "./lance/table-read.js";

/** Options of {@link open}. */
export interface OpenOptions extends StorageOptions {
  /** The branch to open (README.md, "Version control"); `main` by default. */
  branch?: string;
}

/**
 * Checks that `table` is an {@link NdTable} (from `open`, `write` or
 * `checkout`), for the public calls that take one.
 *
 * @throws LanceNdError `InvalidInput` naming the call and what it got.
 */
export function checkTable(table: unknown, op: string): asserts table is NdTable {
  if (!(table instanceof NdTable)) {
    throw new LanceNdError(
      "InvalidInput",
      `${op}: expected an NdTable (from open, write or checkout), got ${describeKind(table)}`,
    );
  }
}

/**
 * Checks that `table` is an {@link NdTable} that can change (not a read-only
 * view from `checkout`).
 *
 * @throws LanceNdError `InvalidInput` for another value or a read-only view.
 */
export function checkWritable(table: unknown, op: string): asserts table is NdTable {
  checkTable(table, op);
  if (table.readOnly) {
    throw new LanceNdError(
      "InvalidInput",
      `${op}: the table is a read-only view of version ${String(table.lance.pinnedVersion)} (checkout); open the table to change it`,
      { uri: table.uri },
    );
  }
}

/** What kind of value `value` is, for "expected an NdTable, got ..." messages: `an object (Map)`, `string abc`, `null`. */
function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no class"})`;
  return `${typeof value} ${String(value)}`;
}

/**
 * An open lance-nd table: a Lance table whose schema is a valid lance-nd v1
 * table schema. Get one from {@link open}, `write` or `checkout`; pass it to
 * `scan`, `append`, `NdWriter.append` and the maintenance functions.
 *
 * The handle tracks the latest version of the table (each call sees other
 * writers' commits), except a view from `checkout`, which is read-only.
 */
export class NdTable {
  #lance: LanceTable;
  #schema: Schema;
  #layout: TableLayout;
  /** The version the handle had just before it read `#schema`: the schema is of this version or a later one. */
  #schemaVersion: number;

  /** Get a table from {@link open}, `write` or `checkout`; the constructor is private. */
  private constructor(lance: LanceTable, schema: Schema, layout: TableLayout, schemaVersion: number) {
    this.#lance = lance;
    this.#schema = schema;
    this.#layout = layout;
    this.#schemaVersion = schemaVersion;
  }

  /** The table uri, as given to {@link open} or `write`. */
  get uri(): string {
    return this.#lance.uri;
  }

  /** The branch the handle reads and writes (from `open(uri, { branch })` or `branch`); null for `main`. */
  get branch(): string | null {
    return this.#lance.branch;
  }

  /** True for a read-only view of an earlier version (from `checkout`). */
  get readOnly(): boolean {
    return this.#lance.pinnedVersion !== undefined;
  }

  /** The Lance table schema as of the last refresh (with stats columns and encoding keys). */
  get tableSchema(): Schema {
    return this.#schema;
  }

  /** The lance-nd layout of the table schema as of the last refresh. */
  get layout(): TableLayout {
    return this.#layout;
  }

  /** The nd schema: array columns and `__global_attrs__`, without stats columns and `lance-encoding:` keys. */
  get ndSchema(): Schema {
    return ndSchema(this.#schema);
  }

  /** @internal The wrapped Lance table. */
  get lance(): LanceTable {
    return this.#lance;
  }

  /** The version the handle reads: the latest, or the checked-out one. */
  async version(): Promise<number> {
    return currentVersion(this.#lance);
  }

  /** The number of rows (optionally matching a Lance SQL filter). */
  async countRows(filter?: string): Promise<number> {
    return countRows(this.#lance, filter);
  }

  /**
   * @internal Re-reads the table schema (after a schema change by this or
   * another writer) and checks it is still a lance-nd v1 table.
   */
  async refresh(): Promise<TableLayout> {
    const version = await currentVersion(this.#lance);
    const schema = await readTableSchema(this.#lance);
    this.#layout = checkedLayout(this.#lance.uri, schema);
    this.#schema = schema;
    this.#schemaVersion = version;
    return this.#layout;
  }

  /**
   * @internal {@link refresh} only when the version moved since the schema
   * was last read, for calls that only read it (`variables`, a scan): every change
   * to a Lance table is a new version, and a version check costs ~0.1 ms
   * where a schema read costs 2 ms, or 300 ms at 4,000 variables
   * (SDK-NOTES.md, section 24). Writes re-read the schema every time.
   */
  async refreshIfMoved(): Promise<TableLayout> {
    if ((await currentVersion(this.#lance)) === this.#schemaVersion) return this.#layout;
    return this.refresh();
  }

  /** @internal A handle on another Lance handle of the same table (e.g. a checked-out version). */
  static async fromLance(lance: LanceTable): Promise<NdTable> {
    const version = await currentVersion(lance);
    const schema = await readTableSchema(lance);
    return new NdTable(lance, schema, checkedLayout(lance.uri, schema), version);
  }
}

/**
 * Opens the lance-nd table at `uri` (a local path such as
 * `data/arrays.lance`, `file://`, `s3://bucket/path/t.lance`, `gs://`,
 * `az://`, or `memory://db/t.lance`), on `main` or on `options.branch`.
 *
 * @throws LanceNdError `InvalidInput` for a uri that is not a non-empty
 * string or bad options (naming each); `TableNotFound` when there is no
 * table; `InvalidTable` for a Lance table that is not a lance-nd v1 table
 * (no `lance_nd:format` key, another version, or columns that break the
 * layout); `InvalidInput` for a branch that does not exist.
 * @example
 * const table = await open("s3://bucket/ocean/sst.lance", { storageOptions: { region: "eu-west-1" } });
 */
export async function open(uri: string, options: OpenOptions = {}): Promise<NdTable> {
  return NdTable.fromLance(await openTableOnBranch(uri, parseOpenOptions(options, uri)));
}

function checkedLayout(uri: string, schema: Schema): TableLayout {
  try {
    return withPureErrors({ uri }, () => validateTableSchema(schema));
  } catch (err) {
    if (err instanceof LanceNdError) throw err;
    throw new LanceNdError("InvalidTable", `not a lance-nd table: ${String(err)}`, { uri, cause: err });
  }
}
