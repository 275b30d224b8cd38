/**
 * How a scan reads: the columns, the Lance filter, and whether it may read
 * in two steps (the row ids of the matching rows from the small columns, then
 * the projected columns of those rows by takes) or must read in one (a
 * filtered scan of the projected columns).
 */
import type { RecordBatch } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN } from "@lance-nd/nd-arrow";
import { selectName, type TableLayout } from "@lance-nd/format";
import { LanceNdError } from "../errors.js";
import { checkNdFilter, referencedColumns } from "./nd-filter.js";

/** Lance's row id column. */
export const ROW_ID = "_rowid";

/** One condition of a scan: nd-level SQL (checked, names quoted) or Lance SQL (as is). */
export type Condition = { kind: "nd"; sql: string } | { kind: "lance"; sql: string };

/** What a scan asks for. */
export interface ReadRequest {
  /** The variables to read; undefined: all. */
  projection: readonly string[] | undefined;
  /** All must hold. */
  conditions: readonly Condition[];
}

/** How a scan reads. */
export interface ReadPlan {
  /**
   * The columns to read, as the SDK's `select` takes them: the projected
   * variables and `__global_attrs__`, or only `_rowid` when neither exists
   * (then each row decodes to an empty batch). Undefined: every column (all
   * variables are wanted; the stats columns are read and dropped), because
   * Lance plans a `select` in time that grows with the number of names times
   * the width of the schema (SDK-NOTES.md, section 14).
   */
  columns: string[] | undefined;
  /** The Lance SQL filter, undefined for none. */
  filter: string | undefined;
  /**
   * True: the read may get the `_rowid`s of the matching rows first, then
   * take `columns` of those rows: it reads array columns and its filter (if
   * any) touches none of them.
   */
  takeable: boolean;
  /**
   * The column paths the filter references (`__global_attrs__.id`), or
   * undefined when a Lance SQL condition (unchecked) is part of it: a scan
   * reads the first rows of a filter in one call only when key indexes
   * answer every path (take-read.ts).
   */
  filterPaths: string[] | undefined;
}

/**
 * Plans a read of `request` on a table with `layout`.
 *
 * @throws LanceNdError `InvalidInput` for a projected name that is not a
 * variable, and for an nd-level filter that names an unknown column or field.
 */
export function planRead(uri: string, layout: TableLayout, request: ReadRequest): ReadPlan {
  const variables = request.projection ?? [...layout.arrays.keys()];
  for (const name of variables) {
    if (!layout.arrays.has(name)) {
      throw new LanceNdError(
        "InvalidInput",
        `project names unknown variable "${name}"; the variables are ${[...layout.arrays.keys()].join(", ")}`,
        {
          uri,
          column: name,
        },
      );
    }
  }
  const small = layout.globalAttrs === null ? [] : [GLOBAL_ATTRS_COLUMN];
  const columns = [...new Set(variables)].map(selectName).concat(small);
  const touched = new Set<string>();
  let filterPaths: Set<string> | undefined = new Set<string>();
  const parts = request.conditions.map((condition) => {
    if (condition.kind === "lance") {
      for (const name of referencedColumns(uri, condition.sql)) touched.add(name);
      filterPaths = undefined;
      return condition.sql;
    }
    const checked = checkNdFilter(uri, layout, condition.sql);
    for (const name of checked.columns) touched.add(name);
    for (const path of checked.paths) filterPaths?.add(path);
    return checked.sql;
  });
  const filter =
    parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(" AND ");
  const readsBig = variables.length > 0;
  const filterTouchesBig = variables.some(
    (name) => touched.has(name) || [...touched].some((t) => t.toLowerCase() === name.toLowerCase()),
  );
  return {
    columns: columns.length === 0 ? [ROW_ID] : new Set(variables).size === layout.arrays.size ? undefined : columns,
    filter,
    takeable: readsBig && !filterTouchesBig,
    filterPaths: filterPaths === undefined ? undefined : [...filterPaths],
  };
}

/**
 * The rows per Lance batch: at most `batchSize`, and at most about
 * `batchSizeBytes` at `bytesPerRow` (bytes on disk per row; 0 when unknown),
 * at least 1.
 *
 * @example batchRows(256, 32 * 2 ** 20, 2 ** 20) // 32
 */
export function batchRows(batchSize: number, batchSizeBytes: number, bytesPerRow: number): number {
  return Math.max(1, Math.min(batchSize, Math.floor(batchSizeBytes / Math.max(1, bytesPerRow))));
}

/** `batch` without its `_rowid` column, if it has one. */
export function withoutRowId(batch: RecordBatch): RecordBatch {
  const at = batch.schema.fields.findIndex((field) => field.name === ROW_ID);
  return at < 0 ? batch : batch.selectAt(batch.schema.fields.flatMap((_, i) => (i === at ? [] : [i])));
}
