/**
 * Encoding NdRecordBatches as one Arrow RecordBatch (FORMAT.md section 2): one row
 * per batch, one `nd_arrow.array` column per array name, and the
 * `__global_attrs__` column.
 */
import { Field, Schema, Struct, Type, makeData } from "apache-arrow";
import type { Data, DataType, List, RecordBatch } from "apache-arrow";
import { recordBatchOf } from "./record-batch.js";
import { NdArrowError, placeError } from "./errors.js";
import { GLOBAL_ATTRS_COLUMN, arrayColumnField, globalAttrsField } from "./schema.js";
import { columnKind } from "./columns.js";
import { sameType } from "./data-type.js";
import { dataFromJS } from "./values.js";
import { concatData } from "./concat.js";
import type { Attr, Attrs } from "./attrs.js";
import type { NdArray } from "./ndarray.js";
import type { NdRecordBatch } from "./batch.js";

/** Options of {@link encode}. */
export interface EncodeOptions {
  /**
   * Encode into exactly this schema (fields, order, types, nullability,
   * metadata), e.g. the schema of an existing table. Default: the union
   * schema of the batches ({@link encodeSchema}).
   */
  schema?: Schema;
}

const MAX_LIST_LENGTH = 2 ** 31 - 1;

interface ArrayPlan {
  kind: "array";
  field: Field;
  valueType: DataType;
  attrFields: Field[];
}

interface GlobalPlan {
  kind: "global";
  field: Field;
  attrFields: Field[];
}

type Plan = ArrayPlan | GlobalPlan;

/**
 * Encodes `batches` as one Arrow RecordBatch, one row per batch.
 *
 * Without `options.schema`, the schema is the union schema (see
 * {@link encodeSchema}); with it, the output has exactly that schema: a
 * column a row lacks is a null row, a missing attribute is null.
 *
 * Throws `SchemaMismatch` (an array with another value type than an earlier
 * row or the schema, or a name or attribute key the schema lacks),
 * `AttributeConflict` (one attribute key with two types across rows),
 * `InvalidArgument` (a schema field that is not an nd-arrow column; more than
 * 2^31-1 values in one column), each naming the column and row.
 *
 * @example
 * const rb = encode([batchA, batchB]);
 * rb.numRows; // 2
 */
export function encode(batches: Iterable<NdRecordBatch>, options: EncodeOptions = {}): RecordBatch {
  return encodeRows([...batches], options, 0);
}

/**
 * The union schema of `batches`: one nullable `nd_arrow.array` column per
 * array name (first-appearance order) whose `attrs` fields are the union of
 * the keys, and `__global_attrs__` (not nullable) when some batch has a
 * global attribute. The field metadata of a column is that of its first
 * array. Throws as {@link encode}.
 */
export function encodeSchema(batches: Iterable<NdRecordBatch>): Schema {
  return new Schema(unionPlans([...batches], 0).map((p) => p.field));
}

/** {@link encode} with rows numbered from `firstRow` in errors (for streams). */
export function encodeRows(rows: readonly NdRecordBatch[], options: EncodeOptions, firstRow: number): RecordBatch {
  let plans: Plan[];
  let schema: Schema;
  if (options.schema === undefined) {
    plans = unionPlans(rows, firstRow);
    schema = new Schema(plans.map((p) => p.field));
  } else {
    schema = options.schema;
    plans = schemaPlans(schema);
    checkRows(rows, plans, firstRow);
  }
  const children = plans.map((plan) => {
    try {
      return plan.kind === "array"
        ? arrayColumn(plan, rows, firstRow)
        : attrsStruct(
            plan.field.type as Struct,
            rows.map((r) => r.globalAttrs),
          );
    } catch (err) {
      throw placeError(err, plan.field.name, undefined);
    }
  });
  const data = makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children });
  return recordBatchOf(schema, data);
}

function unionPlans(rows: readonly NdRecordBatch[], firstRow: number): Plan[] {
  const columns = new Map<string, { valueType: DataType; attrs: Map<string, DataType>; array: NdArray }>();
  const globals = new Map<string, DataType>();
  rows.forEach((batch, i) => {
    const row = firstRow + i;
    for (const [name, array] of batch.arrays()) {
      let col = columns.get(name);
      if (col === undefined) {
        col = { valueType: array.type, attrs: new Map(), array };
        columns.set(name, col);
      } else if (!sameType(col.valueType, array.type)) {
        throw new NdArrowError("SchemaMismatch", `values are ${array.type}, earlier rows have ${col.valueType}`, {
          column: name,
          row,
        });
      }
      unionAttrs(col.attrs, array.attrs, name, row);
    }
    unionAttrs(globals, batch.globalAttrs, GLOBAL_ATTRS_COLUMN, row);
  });
  const plans: Plan[] = [...columns].map(([name, { valueType, attrs, array }]) => {
    const attrFields = attrFieldsOf(attrs);
    return {
      kind: "array",
      field: arrayColumnField(name, valueType, attrFields, array.metadata),
      valueType,
      attrFields,
    };
  });
  if (globals.size > 0) {
    const attrFields = attrFieldsOf(globals);
    plans.push({ kind: "global", field: globalAttrsField(attrFields), attrFields });
  }
  return plans;
}

function unionAttrs(types: Map<string, DataType>, attrs: Attrs, column: string, row: number): void {
  for (const [key, a] of attrs) {
    const seen = types.get(key);
    if (seen === undefined) types.set(key, a.type);
    else if (!sameType(seen, a.type)) {
      throw new NdArrowError("AttributeConflict", `attribute "${key}" is ${a.type}, earlier rows have ${seen}`, {
        column,
        row,
      });
    }
  }
}

function attrFieldsOf(types: ReadonlyMap<string, DataType>): Field[] {
  return [...types].map(([key, type]) => new Field(key, type, true));
}

function schemaPlans(schema: Schema): Plan[] {
  return schema.fields.map((field): Plan => {
    const kind = columnKind(field);
    if (kind === undefined) {
      throw new NdArrowError(
        "InvalidArgument",
        `field ${field.name}: ${field.type} is not an nd-arrow column; leave it out of the schema`,
        {
          column: field.name,
        },
      );
    }
    return kind.kind === "array"
      ? { kind: "array", field, valueType: kind.layout.valueType, attrFields: kind.layout.attrFields }
      : { kind: "global", field, attrFields: kind.attrFields };
  });
}

function checkRows(rows: readonly NdRecordBatch[], plans: readonly Plan[], firstRow: number): void {
  const arrays = new Map<string, ArrayPlan>();
  let global: GlobalPlan | undefined;
  for (const p of plans) {
    if (p.kind === "array") arrays.set(p.field.name, p);
    else global = p;
  }
  rows.forEach((batch, i) => {
    const row = firstRow + i;
    for (const [name, array] of batch.arrays()) {
      const plan = arrays.get(name);
      if (plan === undefined)
        throw new NdArrowError("SchemaMismatch", "the schema has no such column", { column: name, row });
      if (!sameType(plan.valueType, array.type)) {
        throw new NdArrowError("SchemaMismatch", `values are ${array.type}, the schema has ${plan.valueType}`, {
          column: name,
          row,
        });
      }
      checkAttrs(array.attrs, plan.attrFields, name, row);
    }
    if (batch.globalAttrs.size > 0) {
      if (global === undefined) {
        throw new NdArrowError("SchemaMismatch", "the schema has no global attributes column", {
          column: GLOBAL_ATTRS_COLUMN,
          row,
        });
      }
      checkAttrs(batch.globalAttrs, global.attrFields, GLOBAL_ATTRS_COLUMN, row);
    }
  });
}

function checkAttrs(attrs: Attrs, fields: readonly Field[], column: string, row: number): void {
  for (const [key, a] of attrs) {
    const field = fields.find((f) => f.name === key);
    if (field === undefined)
      throw new NdArrowError("SchemaMismatch", `the schema has no attribute "${key}"`, { column, row });
    if (!sameType(field.type, a.type)) {
      throw new NdArrowError("SchemaMismatch", `attribute "${key}" is ${a.type}, the schema has ${field.type}`, {
        column,
        row,
      });
    }
  }
}

/** Builds the struct column of one array name; rows without the array are null rows with valid, empty children. */
function arrayColumn(plan: ArrayPlan, rows: readonly NdRecordBatch[], firstRow: number): Data {
  const type = plan.field.type as Struct;
  const child = (name: string): Field => type.children.find((c) => c.name === name)!;
  const n = rows.length;
  const arrays = rows.map((r) => r.get(plan.field.name));
  const validity = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  const valueOffsets = new Int32Array(n + 1);
  const dimOffsets = new Int32Array(n + 1);
  const pieces: Data[] = [];
  const dimNames: string[] = [];
  const dimSizes: number[] = [];
  let total = 0;
  arrays.forEach((array, i) => {
    if (array === undefined) nullCount++;
    else {
      validity[i >> 3]! |= 1 << (i & 7);
      total += array.size;
      if (total > MAX_LIST_LENGTH) {
        throw new NdArrowError(
          "InvalidArgument",
          `more than 2^31-1 values in one column; encode fewer rows per batch`,
          { row: firstRow + i },
        );
      }
      pieces.push(...array.values.data);
      for (const d of array.dims) {
        dimNames.push(d.name);
        dimSizes.push(d.size);
      }
    }
    valueOffsets[i + 1] = total;
    dimOffsets[i + 1] = dimNames.length;
  });
  const valuesType = child("values").type as List;
  const values = concatOrEmpty(pieces, valuesType.children[0]!.type);
  const namesType = child("dim_names").type as List;
  const sizesType = child("dim_sizes").type as List;
  const children: Data[] = [
    makeData({ type: valuesType, length: n, nullCount: 0, valueOffsets, child: values }),
    makeData({
      type: namesType,
      length: n,
      nullCount: 0,
      valueOffsets: dimOffsets,
      child: dataFromJS(dimNames, namesType.children[0]!.type),
    }),
    makeData({
      type: sizesType,
      length: n,
      nullCount: 0,
      valueOffsets: dimOffsets.slice(),
      child: makeData({
        type: sizesType.children[0]!.type as never,
        length: dimSizes.length,
        data: Uint32Array.from(dimSizes),
      }),
    }),
  ];
  if (plan.attrFields.length > 0) {
    children.push(
      attrsStruct(
        child("attrs").type as Struct,
        arrays.map((a) => a?.attrs),
      ),
    );
  }
  return makeData({
    type,
    length: n,
    nullCount,
    nullBitmap: nullCount > 0 ? validity : undefined,
    children,
  } as never);
}

/** Builds a `Struct<key: A, ...>` of attributes, one row per entry (`undefined`: no attributes, all null). */
function attrsStruct(type: Struct, rows: readonly (Attrs | undefined)[]): Data {
  const children = type.children.map((field) =>
    attrColumn(
      field,
      rows.map((attrs) => attrs?.get(field.name)),
    ),
  );
  return makeData({ type, length: rows.length, nullCount: 0, children });
}

/** One attribute key over the rows: a nullable column of `T` or `List<T>`. */
function attrColumn(field: Field, attrs: readonly (Attr | undefined)[]): Data {
  const n = attrs.length;
  if (field.type.typeId !== Type.List) {
    const pieces = attrs.flatMap((a) => (a === undefined ? [dataFromJS([null], field.type)] : a.value.data));
    return concatOrEmpty(pieces, field.type);
  }
  const listType = field.type as List;
  const offsets = new Int32Array(n + 1);
  const validity = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  const pieces: Data[] = [];
  let total = 0;
  attrs.forEach((a, i) => {
    if (a === undefined) nullCount++;
    else {
      validity[i >> 3]! |= 1 << (i & 7);
      pieces.push(...a.value.data);
      total += a.value.length;
    }
    offsets[i + 1] = total;
  });
  return makeData({
    type: listType,
    length: n,
    nullCount,
    nullBitmap: nullCount > 0 ? validity : undefined,
    valueOffsets: offsets,
    child: concatOrEmpty(pieces, listType.children[0]!.type),
  } as never);
}

/** The pieces as one Data of exactly `type` (the schema's own type object). */
function concatOrEmpty(pieces: readonly Data[], type: DataType): Data {
  const nonEmpty = pieces.filter((p) => p.length > 0);
  if (nonEmpty.length === 0) return dataFromJS([], type);
  return concatData(nonEmpty).clone(type);
}
