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
  /** The dim names of the previous row decoded, by position, with where their bytes were. */
  previousDims: { name: string; bytes: Uint8Array; start: number; stop: number }[];
  /** The dims of the previous row's array (frozen by NdArray), shared by the next row when its dims are the same. */
  sharedDims: readonly Dim[] | undefined;
}

interface AttrColumns {
  data: Data<Struct>;
  fields: readonly Field[];
  /** Per attribute: the last Attr decoded and where its value's bytes were. */
  previous: (PreviousAttr | undefined)[];
}

interface PreviousAttr {
  attr: Attr;
  bytes: Uint8Array;
  start: number;
  stop: number;
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
    if (kind.kind === "global") global = { data, fields: kind.attrFields, previous: [] };
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
    attrs: attrsData === undefined ? undefined : { data: attrsData, fields: attrsData.type.children, previous: [] },
    metadata: userMetadata(field),
    previousDims: [],
    sharedDims: undefined,
  };
}

function decodeArray(col: ArrayColumn, r: number, absent: boolean): NdArray | undefined {
  if (!col.data.getValid(r)) {
    if (absent) return undefined;
    return new NdArray(vectorOf(dataFromJS([null], col.valueType)), [], new Map(), col.metadata);
  }
  const values = listItems(col.values, r);
  const attrs = col.attrs?.data.getValid(r) ? decodeAttrs(col.attrs, r) : new Map<string, Attr>();
  const array = new NdArray(vectorOf(values), dimsOf(col, r), attrs, col.metadata);
  col.sharedDims = array.dims;
  return array;
}

/**
 * The dims of row `r`, read from the buffers of `dim_names` and `dim_sizes`
 * (no sliced Data per row); a name whose bytes equal the same dim's in the
 * column's previous row is that row's string (rows of a column mostly share
 * their dim names), and dims equal to the previous row's are its (frozen)
 * array, which NdArray takes without copying or checking it again.
 */
function dimsOf(col: ArrayColumn, r: number): readonly Dim[] {
  const [first, end] = listRange(col.dimNames, r);
  const [sizesFirst, sizesEnd] = listRange(col.dimSizes, r);
  if (end - first !== sizesEnd - sizesFirst) {
    throw new NdArrowError("InvalidDims", `${end - first} dim_names but ${sizesEnd - sizesFirst} dim_sizes`);
  }
  const names = col.dimNames.children[0]!;
  const offsets = names.valueOffsets as Int32Array;
  const bytes = names.values as Uint8Array;
  const sizes = col.dimSizes.children[0]!.values as Uint32Array;
  const previous = col.previousDims;
  if (sameDims(col, first, end, sizesFirst, offsets, bytes, sizes)) return col.sharedDims!;
  const dims: Dim[] = [];
  for (let i = 0; i < end - first; i++) {
    const start = offsets[first + i]!;
    const stop = offsets[first + i + 1]!;
    const known = previous[i];
    const name =
      known !== undefined && sameBytes(bytes, start, stop, known.bytes, known.start, known.stop)
        ? known.name
        : decoder.decode(bytes.subarray(start, stop));
    previous[i] = { name, bytes, start, stop };
    dims.push({ name, size: sizes[sizesFirst + i]! });
  }
  previous.length = end - first;
  return dims;
}

/** Whether the dims of the row at `first..end` are the previous row's, names and sizes. */
function sameDims(
  col: ArrayColumn,
  first: number,
  end: number,
  sizesFirst: number,
  offsets: Int32Array,
  bytes: Uint8Array,
  sizes: Uint32Array,
): boolean {
  const shared = col.sharedDims;
  if (shared === undefined || shared.length !== end - first) return false;
  for (let i = 0; i < shared.length; i++) {
    const known = col.previousDims[i]!;
    if (shared[i]!.size !== sizes[sizesFirst + i]) return false;
    if (!sameBytes(bytes, offsets[first + i]!, offsets[first + i + 1]!, known.bytes, known.start, known.stop))
      return false;
  }
  return true;
}

/** The child index range `[first, end)` of list row `r` (the list's own offset included). */
function listRange(list: Data, r: number): [number, number] {
  const offsets = list.valueOffsets as Int32Array;
  return [offsets[r]!, offsets[r + 1]!];
}

function sameBytes(a: Uint8Array, aStart: number, aStop: number, b: Uint8Array, bStart: number, bStop: number) {
  if (aStop - aStart !== bStop - bStart) return false;
  for (let i = 0; i < aStop - aStart; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** The items of list row `r`: a slice (a view) of the list's child data. */
function listItems(list: Data, r: number): Data {
  const offsets = list.valueOffsets as Int32Array;
  const start = offsets[r]!;
  return list.children[0]!.slice(start, offsets[r + 1]! - start);
}

/**
 * The attributes of row `r`. A scalar attribute whose value has the same
 * bytes as the one decoded for the previous row is that row's Attr (the
 * same object, as values are views of the batch's buffers anyway): rows
 * mostly repeat their attributes, and an Attr per row is most of a small
 * row's decode.
 */
function decodeAttrs(cols: AttrColumns, r: number): Attrs {
  const attrs = new Map<string, Attr>();
  cols.fields.forEach((field, j) => {
    const data = cols.data.children[j]!;
    if (!data.getValid(r)) return;
    const at = scalarBytes(data, r);
    const known = cols.previous[j];
    if (
      at !== undefined &&
      known !== undefined &&
      sameBytes(at[0], at[1], at[2], known.bytes, known.start, known.stop)
    ) {
      attrs.set(field.name, known.attr);
      return;
    }
    const value = field.type.typeId === Type.List ? listItems(data, r) : data.slice(r, 1);
    const attr = new Attr(field.type, vectorOf(value));
    cols.previous[j] = at === undefined ? undefined : { attr, bytes: at[0], start: at[1], stop: at[2] };
    attrs.set(field.name, attr);
  });
  return attrs;
}

/**
 * The bytes of scalar value `r` of `data` as `[buffer, start, stop]`: the
 * string or binary bytes, or the value's bytes of a fixed-width type;
 * undefined for lists, booleans (bits) and 64-bit offsets.
 */
/** The bytes of each fixed-width values buffer seen, made once per buffer. */
const byteViews = new WeakMap<ArrayBufferView, Uint8Array>();

function scalarBytes(data: Data, r: number): [Uint8Array, number, number] | undefined {
  const id = data.type.typeId;
  if (id === Type.List || id === Type.Bool) return undefined;
  const values = data.values as ArrayBufferView | undefined;
  if (values === undefined) return undefined;
  const offsets = data.valueOffsets as ArrayBufferView | undefined;
  if (offsets !== undefined) {
    if (!(offsets instanceof Int32Array) || !(values instanceof Uint8Array)) return undefined;
    return [values, offsets[r]!, offsets[r + 1]!];
  }
  const width = (values as Uint8Array).BYTES_PER_ELEMENT * data.stride;
  let bytes = byteViews.get(values);
  if (bytes === undefined) {
    bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    byteViews.set(values, bytes);
  }
  return [bytes, r * width, (r + 1) * width];
}
