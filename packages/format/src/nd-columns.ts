/**
 * Reading an nd schema (nd-arrow's encoded schema, e.g. from `encodeSchema`):
 * its array columns with their layouts and its global attributes column.
 */
import type { DataType, Field, Schema } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, arrayColumnLayout, isArrayColumn } from "@lance-nd/nd-arrow";
import { FormatError, type FormatErrorCode } from "./errors.js";
import { checkArrayName } from "./names.js";

/** One array column: its field, value type and attribute fields. */
export interface ArrayColumn {
  /** The column field, as stored. */
  field: Field;
  /** The value type `T` of the array. */
  valueType: DataType;
  /** The attribute fields, in order (empty without attributes). */
  attrFields: Field[];
  /** True when `attrs` is nullable (added after the table's creation, FORMAT.md section 7). */
  attrsNullable: boolean;
}

/** The nd columns of a schema. */
export interface NdColumns {
  /** The array columns by name, in schema order. */
  arrays: Map<string, ArrayColumn>;
  /** The `__global_attrs__` column, or null. */
  globalAttrs: Field | null;
}

/**
 * Reads the array columns and the global attributes column of an nd schema.
 * Throws `ReservedName` or `InvalidInput` for a bad array name, and
 * `InvalidInput` for a field that is neither an nd array column nor
 * `__global_attrs__`.
 */
export function ndColumns(schema: Schema): NdColumns {
  const arrays = new Map<string, ArrayColumn>();
  let globalAttrs: Field | null = null;
  for (const field of schema.fields) {
    if (field.name === GLOBAL_ATTRS_COLUMN) globalAttrs = field;
    else if (isArrayColumn(field)) {
      checkArrayName(field.name);
      arrays.set(field.name, readArrayColumn(field, "InvalidInput"));
    } else {
      throw new FormatError("InvalidInput", `column "${field.name}" of the nd schema is not an nd_arrow.array column`, {
        column: field.name,
      });
    }
  }
  return { arrays, globalAttrs };
}

/** The layout of an array column; a bad layout throws `code` naming the column. */
export function readArrayColumn(field: Field, code: FormatErrorCode): ArrayColumn {
  try {
    return { field, ...arrayColumnLayout(field) };
  } catch (err) {
    throw new FormatError(code, `column "${field.name}": ${(err as Error).message}`, {
      column: field.name,
      cause: err,
    });
  }
}
