import { createRequire } from "node:module";
import * as esmArrow from "apache-arrow";
import type { Data, DataType, Field, RecordBatch, Schema, Table } from "apache-arrow";
import { recordBatchOf } from "@lance-nd/nd-arrow/internal";
import { LanceNdError } from "../errors.js";

/** An apache-arrow module instance: the ESM one this package imports, or the CommonJS one lancedb loads. */
export type ArrowModule = typeof esmArrow;

let sdkArrowModule: ArrowModule | undefined;

/**
 * The apache-arrow instance that `@lancedb/lancedb` loads (CommonJS, resolved
 * from lancedb's own location). Its classes differ from the ESM ones this
 * package imports, and lancedb checks `instanceof` against them in places
 * (e.g. `addColumns`), so every Arrow object handed to lancedb comes from here.
 */
export function sdkArrow(): ArrowModule {
  if (sdkArrowModule === undefined) {
    const requireHere = createRequire(import.meta.url);
    const requireFromSdk = createRequire(requireHere.resolve("@lancedb/lancedb"));
    sdkArrowModule = requireFromSdk("apache-arrow") as ArrowModule;
  }
  return sdkArrowModule;
}

/** Converts a DataType to the SDK's apache-arrow instance (recursive, by typeId, keeping child field metadata). */
export function toSdkType(type: DataType): DataType {
  return convertType(type, sdkArrow());
}

/** Converts a Field (type, nullability, metadata, nested children) to the SDK's apache-arrow instance. */
export function toSdkField(field: Field): Field {
  return convertField(field, sdkArrow());
}

/** Converts a Schema (fields and schema metadata) to the SDK's apache-arrow instance. */
export function toSdkSchema(schema: Schema): Schema {
  return convertSchema(schema, sdkArrow());
}

/**
 * Wraps record batches of any apache-arrow instance in a Table of the SDK's
 * instance, without copying buffers. `schema` (default: the first batch's)
 * gives the field and schema metadata of the result. `table.add` and
 * `createTable` need a Table: they do not accept a RecordBatch (they take it
 * for an array of row objects) nor IPC bytes.
 *
 * @throws LanceNdError `InvalidInput` for no batches or an Arrow type lancedb's arrow cannot hold.
 */
export function toSdkTable(batches: RecordBatch | readonly RecordBatch[] | Table, schema?: Schema): Table {
  const to = sdkArrow();
  const list: readonly RecordBatch[] =
    "batches" in batches ? batches.batches : Array.isArray(batches) ? batches : [batches as RecordBatch];
  const first = list[0];
  if (first === undefined) throw new LanceNdError("InvalidInput", "no record batch to write");
  const sdkSchema = convertSchema(schema ?? first.schema, to);
  return new to.Table(
    sdkSchema,
    list.map((batch) => convertBatch(batch, sdkSchema, to)),
  );
}

/** Converts a Schema returned by the SDK (CommonJS instance) to this package's ESM apache-arrow instance. */
export function fromSdkSchema(schema: Schema): Schema {
  return convertSchema(schema, esmArrow);
}

/**
 * Converts a RecordBatch returned by the SDK to this package's ESM
 * apache-arrow instance, without copying buffers. Needed: ESM `makeVector`,
 * `new Vector`, `new Table`, `new RecordBatch` reject CommonJS Data, and
 * `tableToIPC` of a CommonJS table silently yields an empty buffer.
 */
export function fromSdkBatch(batch: RecordBatch): RecordBatch {
  return convertBatch(batch, convertSchema(batch.schema, esmArrow), esmArrow);
}

function convertBatch(batch: RecordBatch, schema: Schema, to: ArrowModule): RecordBatch {
  const type = new to.Struct(schema.fields);
  return recordBatchOf(schema, convertData(batch.data, type, to) as Data<typeof type>, to.RecordBatch);
}

function convertSchema(schema: Schema, to: ArrowModule): Schema {
  return new to.Schema(
    schema.fields.map((field) => convertField(field, to)),
    new Map(schema.metadata),
  );
}

function convertField(field: Field, to: ArrowModule): Field {
  return new to.Field(field.name, convertType(field.type, to), field.nullable, new Map(field.metadata));
}

function convertData(data: Data, type: DataType, to: ArrowModule): Data {
  const childTypes: Field[] = type.children ?? [];
  const children = data.children.map((child, i) => {
    const childType = childTypes[i]?.type;
    if (childType === undefined)
      throw new LanceNdError("InvalidInput", `Arrow data of type ${String(type)} has more children than its type`);
    return convertData(child, childType, to);
  });
  const dictionaryType = (type as { dictionary?: DataType }).dictionary;
  const dictionary =
    data.dictionary === undefined || dictionaryType === undefined
      ? undefined
      : new to.Vector(data.dictionary.data.map((chunk) => convertData(chunk, dictionaryType, to)));
  const buffers = [data.valueOffsets, data.values, data.nullBitmap, data.typeIds];
  return new to.Data(type, data.offset, data.length, data.nullCount, buffers as never, children, dictionary);
}

/** The parameters of the Arrow types, read by typeId from any apache-arrow instance. */
interface TypeParams {
  isSigned: boolean;
  bitWidth: number;
  precision: number;
  scale: number;
  unit: number;
  timezone: string | null;
  byteWidth: number;
  listSize: number;
  keysSorted: boolean;
  mode: number;
  typeIds: ArrayLike<number>;
  dictionary: DataType;
  indices: DataType;
  id: number;
  isOrdered: boolean;
}

function convertType(type: DataType, to: ArrowModule): DataType {
  const t = type as unknown as TypeParams;
  const T = esmArrow.Type;
  switch (type.typeId) {
    case T.Null:
      return new to.Null();
    case T.Int:
      return new to.Int(t.isSigned, t.bitWidth as 8 | 16 | 32 | 64);
    case T.Float:
      return new to.Float(t.precision);
    case T.Binary:
      return new to.Binary();
    case T.LargeBinary:
      return new to.LargeBinary();
    case T.Utf8:
      return new to.Utf8();
    case T.LargeUtf8:
      return new to.LargeUtf8();
    case T.Bool:
      return new to.Bool();
    case T.Decimal:
      return new to.Decimal(t.scale, t.precision, t.bitWidth);
    case T.Date:
      return new to.Date_(t.unit);
    case T.Time:
      return new to.Time(t.unit, t.bitWidth as 32 | 64);
    case T.Timestamp:
      return new to.Timestamp(t.unit, t.timezone);
    case T.Interval:
      return new to.Interval(t.unit);
    case T.Duration:
      return new to.Duration(t.unit);
    case T.FixedSizeBinary:
      return new to.FixedSizeBinary(t.byteWidth);
    case T.List:
      return new to.List(convertField(onlyChild(type), to));
    case T.FixedSizeList:
      return new to.FixedSizeList(t.listSize, convertField(onlyChild(type), to));
    case T.Struct:
      return new to.Struct(type.children.map((child: Field) => convertField(child, to)));
    case T.Map:
      return new to.Map_(convertField(onlyChild(type), to) as never, t.keysSorted);
    case T.Union:
      return new to.Union(
        t.mode,
        Array.from(t.typeIds),
        type.children.map((child: Field) => convertField(child, to)),
      );
    case T.Dictionary:
      return new to.Dictionary(convertType(t.dictionary, to), convertType(t.indices, to) as never, t.id, t.isOrdered);
    default:
      throw new LanceNdError("InvalidInput", `unsupported Arrow type ${String(type)} (typeId ${type.typeId})`);
  }
}

function onlyChild(type: DataType): Field {
  const child = (type.children as Field[] | undefined)?.[0];
  if (child === undefined) throw new LanceNdError("InvalidInput", `Arrow type ${String(type)} has no child field`);
  return child;
}
