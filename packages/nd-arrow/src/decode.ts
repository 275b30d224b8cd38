/**
 * Decoding an Arrow RecordBatch of nd-arrow columns back into NdRecordBatches
 * (one per row), validating every row (FORMAT.md section 4). Fixed-width values
 * are views of the column buffers, not copies.
 */
import { Type } from "apache-arrow";
import type { Data, DataType, Field, RecordBatch, Struct } from "apache-arrow";
import { NdArrowError, placeError } from "./errors.js";
import { columnKind, userMetadata } from "./columns.js";
import { Attr } from "./attrs.js";
import type { Attrs } from "./attrs.js";
import { NdArray } from "./ndarray.js";
import type { Dim } from "./ndarray.js";
import { NdRecordBatch } from "./batch.js";
import { dataFromJS, vectorOf } from "./values.js";

/** Options of {@link decode}. */
export interface DecodeOptions {
  /**
   * What a null array row becomes: `"scalar"` (default, nd-arrow semantics) a
   * rank-0 null scalar of the column's value type; `"absent"` (lance-nd
   * semantics) the array is left out of that row.
   */
  nulls?: "scalar" | "absent";
}

const decoder = new TextDecoder();

interface ArrayColumn {
  name: string;
  data: Data<Struct>;
  valueType: DataType;
  values: Data;
  dimNames: Data;
  dimSizes: Data;
  attrs: AttrColumns | undefined;
  metadata: ReadonlyMap<string, string>;
}

interface AttrColumns {
  data: Data<Struct>;
  fields: readonly Field[];
}

/**
 * Decodes each row of `rb` into an {@link NdRecordBatch}.
 *
 * Array columns are recognised by the `nd_arrow.array` extension name, or by
 * their layout when the extension metadata is missing; `__global_attrs__` by
 * name. A null `__global_attrs__` row or a null attribute means "absent".
 *
 * Throws, naming the column and row: `InvalidLayout` (a column that is not
 * an nd-arrow column, or a broken layout), `UnsupportedType`, `InvalidShape`
 * (values length is not the product of the sizes), `InvalidDims` (dim_names
 * and dim_sizes of different lengths, empty or duplicate names),
 * `GridMismatch`, `ReservedName`.
 *
 * @example
 * const batches = decode(rb, { nulls: "absent" });
 * batches[0]?.get("sst")?.shape; // [4, 180, 360]
 */
export function decode(rb: RecordBatch, options: DecodeOptions = {}): NdRecordBatch[] {
  return decodeRows(rb, options, 0);
}

/** {@link decode} with rows numbered from `firstRow` in errors (for streams). */
export function decodeRows(rb: RecordBatch, options: DecodeOptions, firstRow: number): NdRecordBatch[] {
  const absent = options.nulls === "absent";
  if (options.nulls !== undefined && options.nulls !== "scalar" && !absent) {
    throw new NdArrowError(
      "InvalidArgument",
      `options.nulls must be "scalar" or "absent", got ${String(options.nulls)}`,
    );
  }
  const arrays: ArrayColumn[] = [];
  let global: AttrColumns | undefined;
  rb.schema.fields.forEach((field, i) => {
    const data = rb.data.children[i]! as Data<Struct>;
    const kind = columnKind(field);
    if (kind === undefined) {
      throw new NdArrowError("InvalidLayout", `${field.type} is not an nd-arrow column`, { column: field.name });
    }
    if (kind.kind === "global") global = { data, fields: kind.attrFields };
    else arrays.push(arrayColumn(field, data, kind.layout.valueType));
  });
  const out: NdRecordBatch[] = [];
  for (let r = 0; r < rb.numRows; r++) {
    const row = firstRow + r;
    const entries: [string, NdArray][] = [];
    for (const col of arrays) {
      let array: NdArray | undefined;
      try {
        array = decodeArray(col, r, absent);
      } catch (err) {
        throw placeError(err, col.name, row);
      }
      if (array !== undefined) entries.push([col.name, array]);
    }
    try {
      const globalAttrs = global?.data.getValid(r) ? decodeAttrs(global, r) : undefined;
      out.push(new NdRecordBatch(entries, globalAttrs));
    } catch (err) {
      throw placeError(err, undefined, row);
    }
  }
  return out;
}

function arrayColumn(field: Field, data: Data<Struct>, valueType: DataType): ArrayColumn {
  const child = (name: string): Data | undefined => {
    const i = (field.type as Struct).children.findIndex((c) => c.name === name);
    return i < 0 ? undefined : data.children[i];
  };
  const attrsData = child("attrs") as Data<Struct> | undefined;
  return {
    name: field.name,
    data,
    valueType,
    values: child("values")!,
    dimNames: child("dim_names")!,
    dimSizes: child("dim_sizes")!,
    attrs: attrsData === undefined ? undefined : { data: attrsData, fields: attrsData.type.children },
    metadata: userMetadata(field),
  };
}

function decodeArray(col: ArrayColumn, r: number, absent: boolean): NdArray | undefined {
  if (!col.data.getValid(r)) {
    if (absent) return undefined;
    return new NdArray(vectorOf(dataFromJS([null], col.valueType)), [], new Map(), col.metadata);
  }
  const values = listItems(col.values, r);
  const names = listItems(col.dimNames, r);
  const sizes = listItems(col.dimSizes, r);
  if (names.length !== sizes.length) {
    throw new NdArrowError("InvalidDims", `${names.length} dim_names but ${sizes.length} dim_sizes`);
  }
  const dims: Dim[] = [];
  const offsets = names.valueOffsets as Int32Array;
  const bytes = names.values as Uint8Array;
  const sizeValues = sizes.values as Uint32Array;
  for (let i = 0; i < names.length; i++) {
    const name = decoder.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!));
    dims.push({ name, size: sizeValues[i]! });
  }
  const attrs = col.attrs?.data.getValid(r) ? decodeAttrs(col.attrs, r) : new Map<string, Attr>();
  return new NdArray(vectorOf(values), dims, attrs, col.metadata);
}

/** The items of list row `r`: a slice (a view) of the list's child data. */
function listItems(list: Data, r: number): Data {
  const offsets = list.valueOffsets as Int32Array;
  const start = offsets[r]!;
  return list.children[0]!.slice(start, offsets[r + 1]! - start);
}

function decodeAttrs(cols: AttrColumns, r: number): Attrs {
  const attrs = new Map<string, Attr>();
  cols.fields.forEach((field, j) => {
    const data = cols.data.children[j]!;
    if (!data.getValid(r)) return;
    const value = field.type.typeId === Type.List ? listItems(data, r) : data.slice(r, 1);
    attrs.set(field.name, new Attr(field.type, vectorOf(value)));
  });
  return attrs;
}
