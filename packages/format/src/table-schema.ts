/**
 * From nd schemas to the table schema of format v1 (FORMAT.md sections 1, 3, 4, 5).
 */
import { type Field, Schema, type Struct } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, globalAttrsField } from "@lance-nd/nd-arrow";
import { hasStats, statsField } from "@lance-nd/stats";
import { columnDefaultsMetadata } from "./column-defaults.js";
import { applyColumnEncoding } from "./column-encoding.js";
import { mergeColumnOptions, parseColumnOptions, type ColumnOptions } from "./column-options.js";
import { FORMAT_KEY, FORMAT_VERSION, STATS_KEY } from "./metadata-keys.js";
import { ndColumns, type ArrayColumn } from "./nd-columns.js";

/** Options of a new table. */
export interface TableSchemaOptions {
  /** Give each variable whose type gets stats a stats column, and mark the table (default false). */
  stats?: boolean;
  /** The encoding of each column, stored as the table's column defaults. */
  columnDefaults?: ColumnOptions;
  /** Encoding options per column name; they override the defaults option by option. */
  columns?: Record<string, ColumnOptions>;
}

/**
 * The table schema for rows with the nd schema `ndSchema` (nd-arrow's union
 * schema, e.g. from `encodeSchema`): one nullable `nd_arrow.array` column per
 * array name with its field metadata as given (FORMAT.md 1.7), a nullable
 * `__global_attrs__` column when the nd schema has global attributes (1.5),
 * a `__stats__:<variable>` column per variable with stats when
 * `stats` is set, the encodings of section 3, and the schema metadata
 * `lance_nd:format = 1`, the column defaults and `lance_nd:stats = true`.
 *
 * Throws `InvalidInput` (bad options, a field that is not nd) or `ReservedName`.
 *
 * @example
 * const schema = tableSchema(encodeSchema(batches), { stats: true, columnDefaults: { compression: "zstd" } });
 */
export function tableSchema(ndSchema: Schema, options: TableSchemaOptions = {}): Schema {
  const encodings = columnEncodings(options);
  const { arrays, globalAttrs } = ndColumns(ndSchema);
  const fields: Field[] = [];
  const statsFields: Field[] = [];
  for (const column of arrays.values()) {
    const added = newArrayColumn(column, encodings, options.stats ?? false);
    fields.push(added.column);
    if (added.stats !== null) statsFields.push(added.stats);
  }
  const globalChildren = globalAttrs === null ? [] : (globalAttrs.type as Struct).children;
  if (globalChildren.length > 0) fields.push(newGlobalAttrsColumn(globalChildren, encodings));
  const metadata = new Map([[FORMAT_KEY, String(FORMAT_VERSION)], ...columnDefaultsMetadata(encodings.defaults)]);
  if (options.stats === true) metadata.set(STATS_KEY, "true");
  return new Schema([...fields, ...statsFields], metadata);
}

/** The validated encoding options of a write: the defaults and the options per column. */
export interface ColumnEncodings {
  /** The defaults for each column the write adds. */
  defaults: ColumnOptions;
  /** The options of one column: the defaults, overridden by the column's own options. */
  of(column: string): ColumnOptions;
}

/** Validates `columnDefaults` and `columns` once; throws `InvalidInput` naming the bad option. */
export function columnEncodings(
  options: Pick<TableSchemaOptions, "columnDefaults" | "columns">,
  tableDefaults: ColumnOptions = {},
): ColumnEncodings {
  const defaults = mergeColumnOptions(
    tableDefaults,
    parseColumnOptions(options.columnDefaults ?? {}, "columnDefaults"),
  );
  const own = new Map(
    Object.entries(options.columns ?? {}).map(([name, value]) => [name, parseColumnOptions(value, `columns.${name}`)]),
  );
  return { defaults, of: (column) => mergeColumnOptions(defaults, own.get(column)) };
}

/** A new array column with its encoding, and its stats column when the table has stats and the type gets them. */
export function newArrayColumn(
  column: ArrayColumn,
  encodings: ColumnEncodings,
  stats: boolean,
): { column: Field; stats: Field | null } {
  const options = encodings.of(column.field.name);
  return {
    column: applyColumnEncoding(column.field, options),
    stats:
      stats && hasStats(column.valueType)
        ? applyColumnEncoding(statsField(column.field.name, column.valueType), options)
        : null,
  };
}

/** A new nullable `__global_attrs__` column (FORMAT.md 1.5) with its encoding. */
export function newGlobalAttrsColumn(children: readonly Field[], encodings: ColumnEncodings): Field {
  return applyColumnEncoding(globalAttrsField(children, true), encodings.of(GLOBAL_ATTRS_COLUMN));
}
