/**
 * The schema evolution plan of a write (FORMAT.md section 2 and rule 4.6, and the
 * Casting section of the writing seed).
 */
import { Field, Schema, Struct, Type } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN, arrayColumnLayout, arrayColumnType } from "@lance-nd/nd-arrow";
import { CASTINGS, canCast, canCastAttr, isCastingError, promotionPlan, sameType } from "@lance-nd/casting";
import { z } from "zod";
import { applyColumnEncoding, columnEncoding } from "./column-encoding.js";
import { FormatError, type CastingMode } from "./errors.js";
import { ndColumns } from "./nd-columns.js";
import {
  columnEncodings,
  newArrayColumn,
  newGlobalAttrsColumn,
  tableSchema,
  type ColumnEncodings,
  type TableSchemaOptions,
} from "./table-schema.js";
import { checkStorableTimeZones } from "./time-zones.js";
import { validateTableSchema } from "./validate.js";
import { widenSchema, type Widening } from "./widen.js";

/** Options of a write plan. */
export interface PlanOptions extends TableSchemaOptions {
  /**
   * What to do with a variable or attribute of another type than the table
   * (default "no"). `stats` only counts when the table is created.
   */
  casting?: CastingMode;
}

/** What a cast applies to: the values of a variable, one of its attributes, or a global attribute. */
export type CastTarget = "values" | { attr: string } | { globalAttr: string };

/** A cast of incoming values or attributes to the table type. */
export interface Cast {
  /** The variable, or `__global_attrs__`. */
  column: string;
  /** What to cast. */
  target: CastTarget;
  /** The incoming type. */
  from: DataType;
  /** The type to cast to: the table type (after a widening). */
  to: DataType;
}

/** A new array column and its stats column, added in one change (FORMAT.md 4.6). */
export interface NewArrayColumn {
  /** The array column, with its encoding. */
  column: Field;
  /** Its stats column, or null (no stats in the table, or a type without stats). */
  stats: Field | null;
}

/** New attribute keys of an existing array column. */
export interface NewAttrs {
  /** The variable. */
  column: string;
  /** The new attribute fields, with the column's encoding. */
  fields: Field[];
}

/**
 * What a write changes in the table. A writer widens first (each widening
 * rewrites a variable and its stats column), then adds
 * `addedFields(currentSchema, plan.schema)` as all-null fields, then appends
 * the rows, cast by `casts`, encoded with `encodeRows(batches, plan.schema)`.
 */
export interface WritePlan {
  /** New array columns with their stats columns. */
  newColumns: NewArrayColumn[];
  /** New attribute keys of existing array columns. */
  newAttrs: NewAttrs[];
  /** New keys of the existing `__global_attrs__` column. */
  newGlobalAttrs: Field[];
  /** The new `__global_attrs__` column when the table had none. */
  newGlobalAttrsColumn: Field | null;
  /** Casts to apply to the incoming values and attributes before encoding. */
  casts: Cast[];
  /** Variables whose table type widens (Promote only). */
  widenings: Widening[];
  /** The table schema after the change. */
  schema: Schema;
}

/** Every casting mode of a write, weakest first: numpy's `CASTINGS`, then "promote" (widen the table). */
export const CASTING_MODES = [...CASTINGS, "promote"] as const satisfies readonly CastingMode[];

const castingSchema = z.enum(CASTING_MODES);
const castingList = `${CASTING_MODES.slice(0, -1)
  .map((m) => JSON.stringify(m))
  .join(", ")} or ${JSON.stringify(CASTING_MODES.at(-1))}`;

/**
 * Plans a write of rows with the nd schema `incoming` (nd-arrow's union
 * schema, from `encodeSchema`) into a table with `tableSchema`, or into a
 * new table when it is null (then `stats`, `columnDefaults` and `columns`
 * make the table; see {@link tableSchema}).
 *
 * Values: "no" takes identical types only; "safe" and "same_kind" cast the
 * incoming values to the table type when `canCast` allows it; "promote"
 * casts when Safe allows it, else widens the table to the promoted type.
 * Attributes and global attributes always follow "safe", and a scalar is
 * never cast to a list or back. New columns get `columnDefaults` over the
 * table's defaults and their `columns` options; existing columns keep their
 * encoding.
 *
 * Throws `SchemaMismatch` naming the variable (and attribute key), both
 * types and the casting mode; `InvalidInput` for a time zone Lance cannot
 * store (FORMAT.md, section 7); `InvalidTable`, `ReservedName`.
 *
 * @example
 * const plan = planWrite(table.schema, encodeSchema(batches), { casting: "promote" });
 * plan.widenings; // [{ column: "sst", from: Float32, to: Float64, statsColumn }]
 */
export function planWrite(tableSchemaOrNull: Schema | null, incoming: Schema, options: PlanOptions = {}): WritePlan {
  const parsed = castingSchema.safeParse(options.casting ?? "no");
  if (!parsed.success) {
    throw new FormatError(
      "InvalidInput",
      `invalid casting ${JSON.stringify(options.casting)}: expected ${castingList}`,
    );
  }
  const casting = parsed.data;
  checkStorableTimeZones(incoming);
  if (tableSchemaOrNull === null) return createPlan(tableSchema(incoming, options));

  const layout = validateTableSchema(tableSchemaOrNull);
  const encodings = columnEncodings(options, layout.columnDefaults);
  const { arrays, globalAttrs } = ndColumns(incoming);
  const plan: WritePlan = {
    newColumns: [],
    newAttrs: [],
    newGlobalAttrs: [],
    newGlobalAttrsColumn: null,
    casts: [],
    widenings: [],
    schema: tableSchemaOrNull,
  };
  let fields = tableSchemaOrNull.fields;
  const replace = (field: Field): void => {
    fields = fields.map((f) => (f.name === field.name ? field : f));
  };

  for (const [name, array] of arrays) {
    const existing = layout.arrays.get(name);
    if (existing === undefined) {
      plan.newColumns.push(newArrayColumn(array, encodings, layout.stats));
      continue;
    }
    const to = planValues(name, existing.valueType, array.valueType, casting, plan.casts);
    if (!sameType(to, existing.valueType)) {
      const widened = widenSchema(new Schema(fields, tableSchemaOrNull.metadata), name, to);
      plan.widenings.push(widened.widening);
      fields = widened.schema.fields;
    }
    const added = planAttrs(existing.attrFields, array.attrFields, plan.casts, name, (key) => ({ attr: key }));
    if (added.length > 0) {
      const current = fields.find((f) => f.name === name)!;
      const { valueType, attrFields, attrsNullable } = arrayColumnLayout(current);
      // An `attrs` struct added to an existing column is nullable: its older rows read it as null.
      const column = withType(
        current,
        arrayColumnType(valueType, [...attrFields, ...added], attrsNullable || attrFields.length === 0),
      );
      replace(column);
      plan.newAttrs.push({ column: name, fields: arrayColumnLayout(column).attrFields.slice(attrFields.length) });
    }
  }

  const global = planGlobalAttrs(layout.globalAttrs, globalAttrs, encodings, plan.casts);
  plan.newGlobalAttrsColumn = global.newColumn;
  plan.newGlobalAttrs = global.newKeys;
  if (global.column !== null) replace(global.column);

  const additions = [
    ...plan.newColumns.map((c) => c.column),
    ...(plan.newGlobalAttrsColumn === null ? [] : [plan.newGlobalAttrsColumn]),
    ...plan.newColumns.flatMap((c) => (c.stats === null ? [] : [c.stats])),
  ];
  plan.schema = new Schema([...fields, ...additions], tableSchemaOrNull.metadata);
  return plan;
}

/** The plan of a new table: everything in it is new. */
function createPlan(schema: Schema): WritePlan {
  const layout = validateTableSchema(schema);
  return {
    newColumns: [...layout.arrays.values()].map(({ field }) => ({
      column: field,
      stats: layout.statsColumns.get(field.name) ?? null,
    })),
    newAttrs: [],
    newGlobalAttrs: [],
    newGlobalAttrsColumn: layout.globalAttrs,
    casts: [],
    widenings: [],
    schema,
  };
}

/**
 * Plans the global attributes: a new `__global_attrs__` column when the
 * table has none, else the casts and new keys of the existing one (and that
 * column with the new keys appended).
 */
function planGlobalAttrs(
  table: Field | null,
  incoming: Field | null,
  encodings: ColumnEncodings,
  casts: Cast[],
): { newColumn: Field | null; newKeys: Field[]; column: Field | null } {
  const incomingKeys = incoming === null ? [] : (incoming.type as Struct).children;
  if (table === null) {
    return {
      newColumn: incomingKeys.length > 0 ? newGlobalAttrsColumn(incomingKeys, encodings) : null,
      newKeys: [],
      column: null,
    };
  }
  const tableKeys = (table.type as Struct).children;
  const added = planAttrs(tableKeys, incomingKeys, casts, GLOBAL_ATTRS_COLUMN, (key) => ({ globalAttr: key }));
  if (added.length === 0) return { newColumn: null, newKeys: [], column: null };
  const column = withType(table, new Struct([...tableKeys, ...added]));
  return { newColumn: null, newKeys: (column.type as Struct).children.slice(tableKeys.length), column };
}

/**
 * Decides what happens to the incoming values of one variable; pushes the
 * cast and returns the table type after the write (the widened type under
 * Promote).
 */
function planValues(
  column: string,
  table: DataType,
  incoming: DataType,
  casting: CastingMode,
  casts: Cast[],
): DataType {
  if (sameType(incoming, table)) return table;
  const mismatch = (why: string, cause?: unknown): never => {
    throw new FormatError(
      "SchemaMismatch",
      `variable "${column}": cannot write ${String(incoming)} values into the table's ${String(table)} with casting "${casting}"${why}`,
      { column, from: incoming, to: table, casting, cause },
    );
  };
  let to = table;
  if (casting === "promote") {
    try {
      const decision = promotionPlan(table, incoming);
      if (decision.action === "widen") to = decision.to;
    } catch (err) {
      if (isCastingError(err)) mismatch(`: ${err.message}`, err);
      throw err;
    }
  } else if (casting === "no") {
    mismatch(" (types must be identical)");
  } else if (!canCast(incoming, table, casting)) {
    mismatch("");
  }
  if (!sameType(incoming, to)) casts.push({ column, target: "values", from: incoming, to });
  return to;
}

/**
 * Compares incoming attribute fields with the table's (Safe casting, never
 * scalar to list or back); pushes the casts and returns the new keys.
 */
function planAttrs(
  table: readonly Field[],
  incoming: readonly Field[],
  casts: Cast[],
  column: string,
  target: (key: string) => CastTarget,
): Field[] {
  const byName = new Map(table.map((f) => [f.name, f]));
  const added: Field[] = [];
  for (const field of incoming) {
    const existing = byName.get(field.name);
    if (existing === undefined) added.push(field);
    else if (!sameType(field.type, existing.type)) {
      const from = field.type;
      const to = existing.type;
      if (!canCastAttr(from, to)) {
        const shapeChanges = (from.typeId === Type.List) !== (to.typeId === Type.List);
        const place =
          column === GLOBAL_ATTRS_COLUMN
            ? `global attribute "${field.name}"`
            : `variable "${column}" attribute "${field.name}"`;
        throw new FormatError(
          "SchemaMismatch",
          `${place}: cannot write ${String(from)} into the table's ${String(to)} (attributes follow "safe" casting${shapeChanges ? "; a scalar and a list never cast" : ""})`,
          { column, key: field.name, from, to, casting: "safe" },
        );
      }
      casts.push({ column, target: target(field.name), from, to });
    }
  }
  return added;
}

/** `field` with a new type, keeping its metadata and its encoding (also on the new leaves). */
function withType(field: Field, type: DataType): Field {
  return applyColumnEncoding(new Field(field.name, type, field.nullable, field.metadata), columnEncoding(field));
}
