import * as arrow from "apache-arrow";
import type { Field, Schema } from "apache-arrow";
import { LanceNdError } from "../errors.js";

/**
 * The field at a Lance dot path (`sst`, `sst.attrs.units`,
 * `sst.values.item`, `__stats__:sst.max`): struct children by name, the
 * list child by its name (`item`). Undefined when there is no such field.
 */
export function fieldAtPath(schema: Schema, path: string): Field | undefined {
  const [head, ...rest] = path.split(".");
  let field = schema.fields.find((f) => f.name === head);
  for (const name of rest) {
    field = (field?.type.children as Field[] | undefined)?.find((child) => child.name === name);
  }
  return field;
}

/**
 * The part of `wanted` that `existing` lacks, as fields that lancedb's
 * `addColumns` accepts: a new top-level field as is; for a struct field that
 * exists, a struct of the same name holding only its new children (Lance
 * merges it into the existing struct, at any depth). Undefined when nothing is new.
 *
 * @throws LanceNdError `SchemaMismatch` naming the field path when a field
 * exists with another type.
 */
export function missingPart(
  uri: string,
  existing: Field | undefined,
  wanted: Field,
  path = wanted.name,
): Field | undefined {
  if (existing === undefined) return wanted;
  if (!arrow.DataType.isStruct(existing.type) || !arrow.DataType.isStruct(wanted.type)) {
    if (String(existing.type) !== String(wanted.type)) {
      throw new LanceNdError(
        "SchemaMismatch",
        `the field has type ${String(existing.type)} in the table, not ${String(wanted.type)}`,
        {
          uri,
          column: path,
        },
      );
    }
    return undefined;
  }
  const existingChildren: Field[] = existing.type.children;
  const added = wanted.type.children.flatMap((child: Field) => {
    const part = missingPart(
      uri,
      existingChildren.find((c) => c.name === child.name),
      child,
      `${path}.${child.name}`,
    );
    return part === undefined ? [] : [part];
  });
  if (added.length === 0) return undefined;
  return new arrow.Field(wanted.name, new arrow.Struct(added), existing.nullable, existing.metadata);
}

/**
 * Checks that each field of `rows` exists in `table` with the same type
 * (struct children included). lancedb's `add` would instead cast silently
 * (Int32 into Utf8 gives "7", Float64 7.5 into Int32 gives 7). Columns of the
 * table that `rows` lacks are allowed: they read as null.
 *
 * @throws LanceNdError `SchemaMismatch` naming the first column that does not fit.
 */
export function checkRowsFit(uri: string, table: Schema, rows: Schema): void {
  for (const field of rows.fields) {
    const target = table.fields.find((f) => f.name === field.name);
    if (target === undefined) {
      throw new LanceNdError("SchemaMismatch", "the table has no such column", { uri, column: field.name });
    }
    if (String(target.type) !== String(field.type)) {
      throw new LanceNdError(
        "SchemaMismatch",
        `the rows have type ${String(field.type)}, the table ${String(target.type)}`,
        {
          uri,
          column: field.name,
        },
      );
    }
  }
}
