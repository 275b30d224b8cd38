/**
 * The scan builder: reads a table as nd record batches, one per table row,
 * with a projection, filters, a limit and bounded Lance batches.
 */
import type { RecordBatch } from "apache-arrow";
import { decodeRows } from "@lance-nd/format";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import { LanceNdError } from "../errors.js";
import { Expr } from "./expr.js";
import { withPureErrors } from "../pure-errors.js";
import { readAhead } from "./read-ahead.js";
import { ROW_ID, batchRows, planRead, withoutRowId, type Condition, type ReadPlan } from "./read-plan.js";
import { answeredByKeyIndexes, pinnedView, projectedBytesPerRow, readState } from "./read-state.js";
import { takeRead } from "./take-read.js";
import type { NdTable } from "../table.js";
import { checkTable } from "../table-check.js";
import { scanRows } from "../lance/table-read.js";

/** Rows per Lance batch by default. */
export const DEFAULT_BATCH_SIZE = 256;
/** About this many bytes per Lance batch by default (8 MiB). */
export const DEFAULT_BATCH_SIZE_BYTES = 8 * 1024 * 1024;
/** Lance batches requested ahead of the consumer by default. */
export const DEFAULT_BATCH_READAHEAD = 2;
/**
 * An unfiltered read of a table with more columns than this goes by one Lance
 * scan, never by takes: a Lance take of every column costs time that grows
 * faster than the width (1,000 columns: 4.0 s for one row; 8,001 columns did
 * not finish in minutes) where a scan reads the 8,001 columns in 3.5 s
 * (SDK-NOTES.md, section 20).
 */
const WIDE_TABLE_COLUMNS = 1000;

interface ScanSettings {
  projection: readonly string[] | undefined;
  conditions: readonly Condition[];
  limit: number | undefined;
  batchSize: number;
  batchSizeBytes: number;
  batchReadahead: number;
  decodeParallelism: number;
}

/** Makes a scan; set by {@link NdScan}'s static block, so that only {@link scan} starts one. */
let startScan: (table: NdTable, settings: ScanSettings) => NdScan;

/**
 * A scan of a table, built by {@link scan}. Each method returns a new scan;
 * iterate it (`for await`) or call {@link NdScan.toArray}. Each item is one
 * table row as an NdRecordBatch: the projected arrays the row has (a null
 * array is absent) and all its global attributes; never stats columns or
 * `lance-encoding:` metadata.
 *
 * Errors surface when the iteration starts: `InvalidInput` for an unknown
 * variable, an nd filter naming an unknown column, or SQL Lance rejects.
 */
export class NdScan implements AsyncIterable<NdRecordBatch> {
  readonly #table: NdTable;
  readonly #settings: ScanSettings;

  /** Start a scan with {@link scan}; the constructor is private. */
  private constructor(table: NdTable, settings: ScanSettings) {
    this.#table = table;
    this.#settings = settings;
  }

  static {
    startScan = (table, settings) => new NdScan(table, settings);
  }

  /** Reads only these variables (whole arrays, not nested fields); `[]` reads only the global attributes. */
  project(names: readonly string[]): NdScan {
    if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) {
      throw new LanceNdError("InvalidInput", "project takes an array of variable names", { uri: this.#table.uri });
    }
    return this.#with({ projection: [...names] });
  }

  /**
   * Keeps the rows that match an nd-level SQL filter over the variables,
   * `__global_attrs__.<key>` and `__stats__:<variable>.min/max`. The names
   * are checked against the table (`InvalidInput` naming an unknown one) and
   * quoted for Lance, so `__stats__:sst.max > 300` works unquoted. Each
   * filter, `filterExpr` and `lanceFilter` adds a condition; all must hold.
   */
  filter(sql: string): NdScan {
    return this.#where({ kind: "nd", sql: this.#sql(sql, "filter") });
  }

  /** Keeps the rows that match an expression built with `col` and `stat` (checked like {@link NdScan.filter}). */
  filterExpr(expr: Expr): NdScan {
    if (!(expr instanceof Expr))
      throw new LanceNdError("InvalidInput", "filterExpr takes an Expr from col or stat", { uri: this.#table.uri });
    return this.#where({ kind: "nd", sql: expr.toSql() });
  }

  /** Keeps the rows that match a Lance SQL filter, passed to Lance as is (no checks, no quoting). */
  lanceFilter(sql: string): NdScan {
    return this.#where({ kind: "lance", sql: this.#sql(sql, "lanceFilter") });
  }

  /** At most `n` rows (a non-negative integer). */
  limit(n: number): NdScan {
    return this.#with({ limit: this.#count(n, "limit", 0) });
  }

  /** At most `n` rows per Lance batch (default 256). */
  batchSize(n: number): NdScan {
    return this.#with({ batchSize: this.#count(n, "batchSize", 1) });
  }

  /** About `n` bytes (in memory) per Lance batch at most (default 8 MiB), from the largest row read so far. */
  batchSizeBytes(n: number): NdScan {
    return this.#with({ batchSizeBytes: this.#count(n, "batchSizeBytes", 1) });
  }

  /** Lance batches requested ahead of the one the consumer holds (default 2; 0 reads on demand). */
  batchReadahead(n: number): NdScan {
    return this.#with({ batchReadahead: this.#count(n, "batchReadahead", 0) });
  }

  /**
   * Accepted for parity with the Rust library (a positive integer). In
   * JavaScript each batch is decoded on the main thread as soon as it
   * arrives (zero-copy views of the Arrow buffers), so this has no effect.
   */
  decodeParallelism(n: number): NdScan {
    return this.#with({ decodeParallelism: this.#count(n, "decodeParallelism", 1) });
  }

  /** All rows of the scan. */
  async toArray(): Promise<NdRecordBatch[]> {
    const rows: NdRecordBatch[] = [];
    for await (const row of this) rows.push(row);
    return rows;
  }

  /**
   * Reads the rows: checks the projection and filters first, then streams.
   * A read of array columns goes by takes (bounded memory, see take-read.ts)
   * when it filters on small columns only (a point read: `_rowid`s first),
   * when the projection of the whole table is more than one batch, or when
   * the table has more fragments than the read needs takes (unfiltered reads
   * take by offset: a Lance scan pays for every fragment, a take for every
   * call), except whole rows of a table wider than {@link WIDE_TABLE_COLUMNS};
   * otherwise one Lance scan reads it (a filter on a projected
   * variable, global attributes alone).
   */
  async *[Symbol.asyncIterator](): AsyncGenerator<NdRecordBatch> {
    const { limit, batchSize, batchSizeBytes, batchReadahead } = this.#settings;
    const table = this.#table;
    const known = await readState(table);
    const plan = planRead(table.uri, table.layout, {
      projection: this.#settings.projection,
      conditions: this.#settings.conditions,
    });
    if (limit === 0) return;
    const bytesPerRow = !plan.takeable
      ? 0
      : plan.columns === undefined
        ? known.bytesPerRow
        : await projectedBytesPerRow(table, known, plan.columns);
    const rowsPerBatch = batchRows(batchSize, batchSizeBytes, bytesPerRow || known.bytesPerRow);
    const count = Math.min(limit ?? Infinity, known.rows);
    const wideWholeRows = plan.columns === undefined && table.tableSchema.fields.length > WIDE_TABLE_COLUMNS;
    const byTakes =
      plan.takeable &&
      (plan.filter !== undefined ||
        (!wideWholeRows &&
          (bytesPerRow * known.rows > batchSizeBytes || known.fragments > Math.ceil(count / rowsPerBatch))));
    const decode = (rb: RecordBatch): NdRecordBatch[] => decodeBatch(table.uri, plan, rb);
    const view = byTakes ? await pinnedView(table, known) : undefined;
    const batches = view
      ? takeRead(
          view,
          {
            columns: plan.columns,
            rows:
              plan.filter === undefined && Number.isFinite(count)
                ? { count }
                : { filter: plan.filter, limit, indexed: await answeredByKeyIndexes(view, known, plan) },
            bytesPerRow,
          },
          { batchSize, batchSizeBytes, readahead: batchReadahead },
          decode,
        )
      : readAhead(
          scanRows(table.lance, {
            ...optional("columns", plan.columns),
            ...optional("filter", plan.filter),
            ...optional("limit", limit),
            maxBatchLength: rowsPerBatch,
          }),
          batchReadahead,
          decode,
        );
    let left = limit ?? Infinity;
    for await (const rows of batches) {
      for (const row of rows) {
        yield row;
        if (--left === 0) return;
      }
    }
  }

  #with(change: Partial<ScanSettings>): NdScan {
    return new NdScan(this.#table, { ...this.#settings, ...change });
  }

  #where(condition: Condition): NdScan {
    return this.#with({ conditions: [...this.#settings.conditions, condition] });
  }

  #sql(sql: unknown, method: string): string {
    if (typeof sql !== "string" || sql.trim() === "") {
      throw new LanceNdError("InvalidInput", `${method} takes a non-empty SQL string`, { uri: this.#table.uri });
    }
    return sql;
  }

  #count(n: unknown, method: string, min: number): number {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min) {
      throw new LanceNdError("InvalidInput", `${method} takes an integer >= ${min}, got ${String(n)}`, {
        uri: this.#table.uri,
      });
    }
    return n;
  }
}

/**
 * Starts a scan of `table`: all variables and rows, in table order.
 *
 * @example
 * for await (const batch of scan(table).project(["sst"]).filter("__global_attrs__.id = 'a'")) {
 *   console.log(batch.globalAttr("id"), batch.get("sst")?.shape);
 * }
 */
export function scan(table: NdTable): NdScan {
  checkTable(table, "scan");
  return startScan(table, {
    projection: undefined,
    conditions: [],
    limit: undefined,
    batchSize: DEFAULT_BATCH_SIZE,
    batchSizeBytes: DEFAULT_BATCH_SIZE_BYTES,
    batchReadahead: DEFAULT_BATCH_READAHEAD,
    decodeParallelism: 1,
  });
}

function decodeBatch(uri: string, plan: ReadPlan, rb: RecordBatch): NdRecordBatch[] {
  if (plan.columns?.length === 1 && plan.columns[0] === ROW_ID)
    return Array.from({ length: rb.numRows }, () => new NdRecordBatch({}));
  return withPureErrors({ uri }, () => decodeRows(withoutRowId(rb)));
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
