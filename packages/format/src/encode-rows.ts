/** Writing rows: nd record batches as a RecordBatch of the table schema. */
import { Schema, Struct, makeData } from "apache-arrow";
import type { Data, RecordBatch } from "apache-arrow";
import { encode, isNdArrowError, type NdRecordBatch } from "@lance-nd/nd-arrow";
import { recordBatchOf } from "@lance-nd/nd-arrow/internal";
import { buildStatsColumn, isStatsColumn } from "@lance-nd/stats";
import { FormatError } from "./errors.js";
import { validateTableSchema } from "./validate.js";

/** Options of {@link encodeRows}. */
export interface EncodeRowsOptions {
  /**
   * Fill the stats columns (default: the table's `lance_nd:stats` key,
   * FORMAT.md 4.8). With false, each stats row is null, which readers take as "the row
   * does not have the variable" (FORMAT.md 4.4), so only pass false for a table
   * without stats columns.
   */
  stats?: boolean;
}

/**
 * Encodes `batches` as one RecordBatch with exactly the fields and metadata
 * of the table schema `schema`, one row per batch: the nd columns by
 * nd-arrow's `encode` (a missing array or attribute is null), and each stats
 * column from the values of its variable (a null row for a batch without the
 * variable, FORMAT.md 4.3 to 4.5). The values must already have the table types
 * (cast them first, with the casts of {@link planWrite}).
 *
 * Throws `SchemaMismatch` when a batch does not fit the schema (another
 * type, an array or attribute key the table lacks), naming the column and
 * row; `InvalidInput` for rows into a schema without columns (such a row
 * has no arrays and no global attributes, and Lance keeps no rows in a
 * table without columns); `InvalidTable` for a bad schema.
 *
 * @example
 * const rb = encodeRows(batches, plan.schema);
 */
export function encodeRows(
  batches: readonly NdRecordBatch[],
  schema: Schema,
  options: EncodeRowsOptions = {},
): RecordBatch {
  const layout = validateTableSchema(schema);
  const stats = options.stats ?? layout.stats;
  let nd: RecordBatch;
  try {
    nd = encode(batches, { schema: new Schema(schema.fields.filter((f) => !isStatsColumn(f.name))) });
  } catch (err) {
    if (!isNdArrowError(err)) throw err;
    throw new FormatError("SchemaMismatch", `the rows do not fit the table schema: ${err.message}`, {
      column: err.column,
      cause: err,
    });
  }
  if (schema.fields.length === 0 && batches.length > 0) {
    throw new FormatError(
      "InvalidInput",
      `row 0 has no arrays and no global attributes: a table without columns cannot store it (write an array or a global attribute, e.g. an id)`,
    );
  }
  const ndChildren = new Map(nd.schema.fields.map((field, i) => [field.name, nd.data.children[i]!]));
  const variables = new Map([...layout.statsColumns].map(([variable, field]) => [field.name, variable]));
  const children: Data[] = schema.fields.map((field) => {
    const variable = variables.get(field.name);
    if (variable === undefined) return ndChildren.get(field.name)!;
    const type = layout.arrays.get(variable)!.valueType;
    const rows = batches.map((batch) => (stats ? (batch.get(variable)?.values ?? null) : null));
    return buildStatsColumn(type, rows).data[0]!;
  });
  const data = makeData({ type: new Struct(schema.fields), length: batches.length, nullCount: 0, children });
  return recordBatchOf(schema, data);
}
