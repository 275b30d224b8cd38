/** What a schema change adds, as nested field paths (FORMAT.md section 2). */
import { Type } from "apache-arrow";
import type { Field, Schema, Struct } from "apache-arrow";

/** A field that `after` has and `before` does not. */
export interface AddedField {
  /** The names from the top-level column down to the field, e.g. `["sst", "attrs", "units"]`. */
  path: string[];
  /** The new field (with everything inside it). */
  field: Field;
}

/**
 * The fields of `after` that `before` lacks, outermost first: a new column
 * is one entry; inside an existing struct column (an array's `attrs`,
 * `__global_attrs__`) each new child is one entry. A writer adds them as
 * all-null fields before it appends rows. Type changes are not additions.
 *
 * @example
 * addedFields(table.schema, plan.schema);
 * // [{ path: ["sst", "attrs", "units"], field }, { path: ["chl"], field }, { path: ["__stats__:chl"], field }]
 */
export function addedFields(before: Schema, after: Schema): AddedField[] {
  return addedChildren(before.fields, after.fields, []);
}

function addedChildren(before: readonly Field[], after: readonly Field[], parent: string[]): AddedField[] {
  const byName = new Map(before.map((f) => [f.name, f]));
  return after.flatMap((field) => {
    const path = [...parent, field.name];
    const old = byName.get(field.name);
    if (old === undefined) return [{ path, field }];
    if (old.type.typeId !== Type.Struct || field.type.typeId !== Type.Struct) return [];
    return addedChildren((old.type as Struct).children, (field.type as Struct).children, path);
  });
}
