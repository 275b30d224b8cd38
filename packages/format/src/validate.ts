/**
 * Reading a table schema: the checks of a reader (FORMAT.md sections 1, 4, 5) and
 * the nd schema a reader decodes with.
 */
import { type Field, Schema, Type } from "apache-arrow";
import type { Struct } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, isArrayColumn, isSupportedAttrType } from "@lance-nd/nd-arrow";
import { sameType } from "@lance-nd/casting";
import { isStatsColumn, statsVariable } from "@lance-nd/stats";
import { readColumnDefaults } from "./column-defaults.js";
import { stripEncodingMetadata } from "./column-encoding.js";
import type { ColumnOptions } from "./column-options.js";
import { FormatError } from "./errors.js";
import { FORMAT_KEY, FORMAT_VERSION, STATS_KEY, isFormatMetadataKey } from "./metadata-keys.js";
import { isReservedName } from "./names.js";
import { readArrayColumn, type ArrayColumn } from "./nd-columns.js";

/** What a valid table schema holds. */
export interface TableLayout {
  /** The format version, always 1. */
  formatVersion: 1;
  /** The array columns by name, in schema order. */
  arrays: Map<string, ArrayColumn>;
  /** The `__global_attrs__` column, or null when the table has no global attributes. */
  globalAttrs: Field | null;
  /** True when the table has the key `lance_nd:stats = true` (FORMAT.md 4.8). */
  stats: boolean;
  /** The stats columns by variable. */
  statsColumns: Map<string, Field>;
  /** The current column defaults (generation scheme: see FORMAT.md). */
  columnDefaults: ColumnOptions;
}

/**
 * Checks a table schema as a reader does and returns its layout. Throws
 * `InvalidTable` without the `lance_nd:format` key or with another version
 * (FORMAT.md section 5), for a column that is not an nd array column, a stats column
 * or `__global_attrs__`, for a stats column whose variable is missing or whose
 * `min`/`max` type is not the variable's type, and for bad column defaults.
 *
 * @example
 * const layout = validateTableSchema(schema);
 * [...layout.arrays.keys()]; // ["sst", "lat", "lon", "time"]
 */
export function validateTableSchema(schema: Schema): TableLayout {
  checkFormatVersion(schema.metadata);
  const arrays = new Map<string, ArrayColumn>();
  const statsFields: Field[] = [];
  let globalAttrs: Field | null = null;
  for (const field of schema.fields) {
    if (field.name === GLOBAL_ATTRS_COLUMN) globalAttrs = checkGlobalAttrs(field);
    else if (isStatsColumn(field.name)) statsFields.push(field);
    else if (isArrayColumn(field) && !isReservedName(field.name))
      arrays.set(field.name, readArrayColumn(field, "InvalidTable"));
    else {
      throw new FormatError(
        "InvalidTable",
        `column "${field.name}" is not an nd_arrow.array column, a __stats__ column or ${GLOBAL_ATTRS_COLUMN}`,
        { column: field.name },
      );
    }
  }
  const statsColumns = new Map(statsFields.map((field) => [checkStatsColumn(field, arrays), field]));
  return {
    formatVersion: FORMAT_VERSION,
    arrays,
    globalAttrs,
    stats: schema.metadata.get(STATS_KEY) === "true",
    statsColumns,
    columnDefaults: readColumnDefaults(schema.metadata),
  };
}

/**
 * The nd schema of a table schema, which a reader decodes the rows with:
 * the array columns and `__global_attrs__` without their `lance-encoding:*`
 * keys (other field metadata stays), no stats columns, and the schema
 * metadata without the format's keys. Throws `InvalidTable` like
 * {@link validateTableSchema}.
 */
export function ndSchema(schema: Schema): Schema {
  validateTableSchema(schema);
  const fields = schema.fields.filter((field) => !isStatsColumn(field.name)).map(stripEncodingMetadata);
  const metadata = new Map([...schema.metadata].filter(([key]) => !isFormatMetadataKey(key)));
  return new Schema(fields, metadata);
}

function checkFormatVersion(metadata: ReadonlyMap<string, string>): void {
  const version = metadata.get(FORMAT_KEY);
  if (version === undefined) {
    throw new FormatError("InvalidTable", `not a lance-nd table: the schema metadata has no ${FORMAT_KEY} key`);
  }
  if (version !== String(FORMAT_VERSION)) {
    throw new FormatError(
      "InvalidTable",
      `unsupported lance-nd format version ${JSON.stringify(version)}: this release reads version ${FORMAT_VERSION}`,
    );
  }
}

function checkGlobalAttrs(field: Field): Field {
  const fail = (why: string): never => {
    throw new FormatError("InvalidTable", `column "${GLOBAL_ATTRS_COLUMN}": ${why}`, { column: GLOBAL_ATTRS_COLUMN });
  };
  if (field.type.typeId !== Type.Struct) fail(`type is ${String(field.type)}, expected a Struct`);
  for (const child of (field.type as Struct).children) {
    if (!isSupportedAttrType(child.type)) fail(`attribute "${child.name}" has unsupported type ${String(child.type)}`);
  }
  return field;
}

/** Checks a stats column against its variable and returns the variable. */
function checkStatsColumn(field: Field, arrays: ReadonlyMap<string, ArrayColumn>): string {
  const column = field.name;
  const fail = (why: string): never => {
    throw new FormatError("InvalidTable", `stats column "${column}": ${why}`, { column });
  };
  const variable = statsVariable(column) ?? fail('expected the name "__stats__:<variable>"');
  const array = arrays.get(variable) ?? fail(`the table has no variable "${variable}"`);
  const children = field.type.typeId === Type.Struct ? (field.type as Struct).children : [];
  const [min, max] = children;
  const fits = (child: Field | undefined, name: string): boolean =>
    child !== undefined && child.name === name && sameType(child.type, array.valueType);
  if (children.length !== 2 || !fits(min, "min") || !fits(max, "max")) {
    fail(
      `expected Struct<min: ${String(array.valueType)}, max: ${String(array.valueType)}>, found ${String(field.type)}`,
    );
  }
  return variable;
}
