/**
 * Recognising the nd-arrow columns of an Arrow schema: array columns (by
 * extension name, or by layout when a store dropped the extension metadata)
 * and the global attributes column (by name).
 */
import { Type } from "apache-arrow";
import type { Field, Struct } from "apache-arrow";
import { NdArrowError } from "./errors.js";
import {
  EXTENSION_METADATA_KEY,
  EXTENSION_NAME_KEY,
  GLOBAL_ATTRS_COLUMN,
  arrayColumnLayout,
  isArrayColumn,
  isSupportedAttrType,
} from "./schema.js";
import type { ArrayColumnLayout } from "./schema.js";

/** What one schema field is to the codec. */
export type ColumnKind =
  | { kind: "array"; field: Field; layout: ArrayColumnLayout }
  | { kind: "global"; field: Field; attrFields: Field[] };

/**
 * Classifies `field`, or returns `undefined` for a field that is not an
 * nd-arrow column. Throws `InvalidLayout`/`UnsupportedType` for a column that
 * claims to be one but breaks the layout, and `ReservedName` for an array
 * column whose name starts with `__`.
 */
export function columnKind(field: Field): ColumnKind | undefined {
  const column = field.name;
  if (column === GLOBAL_ATTRS_COLUMN) {
    if (field.type.typeId !== Type.Struct) {
      throw new NdArrowError("InvalidLayout", `the global attributes column is ${field.type}, expected a Struct`, {
        column,
      });
    }
    const attrFields = (field.type as Struct).children;
    for (const a of attrFields) {
      if (!isSupportedAttrType(a.type)) {
        throw new NdArrowError("UnsupportedType", `global attribute "${a.name}" has unsupported type ${a.type}`, {
          column,
        });
      }
    }
    return { kind: "global", field, attrFields };
  }
  let layout: ArrayColumnLayout;
  if (isArrayColumn(field)) {
    layout = arrayColumnLayout(field);
  } else if (!field.metadata.has(EXTENSION_NAME_KEY) && looksLikeArrayColumn(field)) {
    layout = arrayColumnLayout(field);
  } else {
    return undefined;
  }
  if (column === "" || column.startsWith("__")) {
    throw new NdArrowError("ReservedName", `array column names must be non-empty and not start with "__"`, { column });
  }
  return { kind: "array", field, layout };
}

/** The field metadata of an array column without the extension keys (the user's own). */
export function userMetadata(field: Field): Map<string, string> {
  const meta = new Map(field.metadata);
  meta.delete(EXTENSION_NAME_KEY);
  meta.delete(EXTENSION_METADATA_KEY);
  return meta;
}

function looksLikeArrayColumn(field: Field): boolean {
  if (field.type.typeId !== Type.Struct) return false;
  const names = new Set((field.type as Struct).children.map((c) => c.name));
  return names.has("values") && names.has("dim_names") && names.has("dim_sizes");
}
