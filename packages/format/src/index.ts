/**
 * @lance-nd/format: the lance-nd table format v1 (FORMAT.md), pure: Arrow
 * schemas in, Arrow schemas and record batches out, no Lance import.
 * Table schemas from nd schemas, column encodings and defaults, stats
 * columns, schema evolution plans, schema validation on open, and the names
 * and quoting of the format.
 *
 * @example
 * import { encodeSchema } from "@lance-nd/nd-arrow";
 * import { planWrite, tableSchema, validateTableSchema } from "@lance-nd/format";
 *
 * const schema = tableSchema(encodeSchema(batches), { stats: true, columnDefaults: { compression: "zstd" } });
 * validateTableSchema(schema).arrays.keys(); // the variables
 * const plan = planWrite(schema, encodeSchema(moreBatches), { casting: "promote" });
 * plan.schema; // the table schema after the write
 */
export { FormatError, isFormatError } from "./errors.js";
export type { FormatErrorCode, FormatErrorContext, CastingMode } from "./errors.js";
export { FORMAT_KEY, FORMAT_VERSION, STATS_KEY, COLUMN_DEFAULTS_PREFIX, ENCODING_PREFIX } from "./metadata-keys.js";
export {
  isReservedName,
  checkArrayName,
  quoteIdentifier,
  quoteFieldPath,
  sqlStringLiteral,
  selectName,
} from "./names.js";
export { parseColumnOptions, mergeColumnOptions } from "./column-options.js";
export { describeValue } from "@lance-nd/casting/coded-error";
export type { ColumnOptions, Codec } from "./column-options.js";
export { applyColumnEncoding, columnEncoding, stripEncodingMetadata } from "./column-encoding.js";
export { readColumnDefaults, columnDefaultsMetadata } from "./column-defaults.js";
export { tableSchema } from "./table-schema.js";
export type { TableSchemaOptions } from "./table-schema.js";
export type { ArrayColumn } from "./nd-columns.js";
export { validateTableSchema, ndSchema } from "./validate.js";
export type { TableLayout } from "./validate.js";
export { widenSchema } from "./widen.js";
export type { Widening } from "./widen.js";
export { CASTING_MODES, planWrite } from "./plan-write.js";
export type { PlanOptions, WritePlan, Cast, CastTarget, NewArrayColumn, NewAttrs } from "./plan-write.js";
export { encodeRows } from "./encode-rows.js";
export type { EncodeRowsOptions } from "./encode-rows.js";
export { decodeRows } from "./decode-rows.js";
export { addedFields } from "./added-fields.js";
export type { AddedField } from "./added-fields.js";
export { describeSchema } from "./describe-schema.js";
