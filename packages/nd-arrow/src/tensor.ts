/**
 * Interop with Arrow's canonical tensor extension types
 * (https://arrow.apache.org/docs/format/CanonicalExtensions.html):
 * `arrow.fixed_shape_tensor` (storage `FixedSizeList<T>[prod(shape)]`) and
 * `arrow.variable_shape_tensor` (storage
 * `Struct<data: List<T>, shape: FixedSizeList<Int32>[ndim]>`), one tensor
 * per row, each row an {@link NdArray}.
 */
import { Field, FixedSizeList, Int32, List, Struct, Type, makeData, makeVector } from "apache-arrow";
import type { Data, DataType, Vector } from "apache-arrow";
import { sameType } from "./data-type.js";
import { NdArrowError } from "./errors.js";
import { NdArray } from "./ndarray.js";
import type { Dim } from "./ndarray.js";
import { EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY, isSupportedValueType } from "./schema.js";
import { concatData } from "./concat.js";
import { rowMajorStrides, takeStrided } from "./strided.js";
import { nullData } from "./value-buffers.js";

/** `ARROW:extension:name` of the fixed shape tensor type. */
export const FIXED_SHAPE_TENSOR = "arrow.fixed_shape_tensor";
/** `ARROW:extension:name` of the variable shape tensor type. */
export const VARIABLE_SHAPE_TENSOR = "arrow.variable_shape_tensor";

/** A tensor column as Arrow: the extension field and its storage vector. */
export interface TensorColumn {
  field: Field;
  vector: Vector;
}

/**
 * The rows of an `arrow.fixed_shape_tensor` column as nd arrays, in the
 * logical dim order: dims are named by `dim_names` (else `dim_0`, `dim_1`,
 * ...) and, with a `permutation`, reordered as it says (values transposed
 * to row-major over the logical order). Without a permutation the values
 * are views of the column, not copies. A null row is a rank-0 null scalar,
 * as `decode` does (FORMAT.md section 2).
 *
 * Throws `InvalidLayout` (naming the column) for another extension name,
 * bad metadata, or a storage type that is not `FixedSizeList<T>[prod(shape)]`,
 * and `UnsupportedType` for a `T` outside FORMAT.md section 3.
 *
 * @example
 * const arrays = fromFixedShapeTensor(table.getChild("images")!, table.schema.fields[0]!);
 */
export function fromFixedShapeTensor(column: Vector | Data, field: Field): NdArray[] {
  const meta = extensionMetadata(field, FIXED_SHAPE_TENSOR);
  const fail = (why: string): never => {
    throw new NdArrowError("InvalidLayout", `not an ${FIXED_SHAPE_TENSOR} column: ${why}`, { column: field.name });
  };
  const shape = meta.shape;
  if (!isSizes(shape)) return fail(`"shape" is ${JSON.stringify(shape)}, expected an array of sizes`);
  const layout = logicalLayout(field.name, meta, shape);
  if (field.type.typeId !== Type.FixedSizeList) return fail(`storage type is ${field.type}, expected a FixedSizeList`);
  const { listSize } = field.type as FixedSizeList;
  const size = shape.reduce((n, s) => n * s, 1);
  if (listSize !== size) return fail(`list size ${listSize} is not the product of shape [${shape.join(", ")}]`);
  const valueType = valueTypeOf(field);
  const out: NdArray[] = [];
  for (const list of chunksOf(column)) {
    const child = list.children[0]!;
    for (let i = 0; i < list.length; i++) {
      out.push(
        list.getValid(i)
          ? layout.toArray(makeVector(child.slice(i * size, size)), shape, valueType)
          : nullRow(valueType),
      );
    }
  }
  return out;
}

/**
 * Nd arrays as an `arrow.fixed_shape_tensor` column named `name`: all
 * arrays share dims (names, sizes, order) and value type; the metadata has
 * `shape` and `dim_names`. A rank-0 array holding a null is a null row
 * (when the others have dims), so `fromFixedShapeTensor` round-trips.
 *
 * Throws `InvalidArgument` for no arrays or mixed value types and
 * `InvalidDims` for arrays whose dims differ (naming the array index).
 *
 * @example
 * const { field, vector } = toFixedShapeTensor([a, b], "images");
 * new Table(new Schema([field]), ...);
 */
export function toFixedShapeTensor(arrays: readonly NdArray[], name = "tensor"): TensorColumn {
  const { model, type, isNull } = rowModel(arrays);
  const shape = model.shape;
  const size = model.size;
  const parts = arrays.map((array, i) => {
    if (isNull[i]) return nullData(type, size);
    if (!sameDims(array.dims, model.dims)) {
      throw new NdArrowError(
        "InvalidDims",
        `array ${i} has dims ${dimsText(array.dims)}, array 0 has ${dimsText(model.dims)}`,
      );
    }
    return concatData(array.values.data);
  });
  const listType = new FixedSizeList(size, new Field("item", type, true));
  const { nullCount, nullBitmap } = validity(isNull);
  const child = parts.length === 0 ? nullData(type, 0) : concatData(parts);
  const data = makeData({ type: listType, length: arrays.length, nullCount, nullBitmap, child });
  const meta = { shape, dim_names: model.dimNames };
  return { field: extensionField(name, listType, FIXED_SHAPE_TENSOR, meta), vector: makeVector(data) };
}

/**
 * The rows of an `arrow.variable_shape_tensor` column as nd arrays, each
 * with its own shape (from the `shape` child), dims named by `dim_names`
 * (else `dim_0`, ...) and put in logical order by `permutation` as in
 * {@link fromFixedShapeTensor}. A null row is a rank-0 null scalar.
 *
 * Throws `InvalidLayout` (naming the column, and the row for a row whose
 * data does not fill its shape or breaks `uniform_shape`) and
 * `UnsupportedType`.
 */
export function fromVariableShapeTensor(column: Vector | Data, field: Field): NdArray[] {
  const meta = extensionMetadata(field, VARIABLE_SHAPE_TENSOR);
  const fail = (why: string, row?: number): never => {
    throw new NdArrowError("InvalidLayout", `not an ${VARIABLE_SHAPE_TENSOR} column: ${why}`, {
      column: field.name,
      row,
    });
  };
  if (field.type.typeId !== Type.Struct) return fail(`storage type is ${field.type}, expected a Struct`);
  const children = (field.type as Struct).children;
  const dataAt = children.findIndex((c) => c.name === "data");
  const shapeAt = children.findIndex((c) => c.name === "shape");
  const dataField = children[dataAt];
  const shapeField = children[shapeAt];
  if (dataField === undefined || dataField.type.typeId !== Type.List) return fail(`child "data" must be a List`);
  const shapeType = shapeField?.type as FixedSizeList | undefined;
  const shapeItem = shapeType?.children[0]?.type;
  if (
    shapeType?.typeId !== Type.FixedSizeList ||
    shapeItem?.typeId !== Type.Int ||
    (shapeItem as Int32).bitWidth !== 32
  ) {
    return fail(`child "shape" must be a FixedSizeList<Int32>`);
  }
  const ndim = shapeType.listSize;
  const layout = logicalLayout(field.name, meta, new Array<number>(ndim).fill(0));
  const uniform = meta.uniform_shape;
  if (uniform !== undefined && (!Array.isArray(uniform) || uniform.length !== ndim)) {
    return fail(`"uniform_shape" must be an array of ${ndim} sizes or nulls`);
  }
  const valueType = valueTypeOf(dataField);
  const out: NdArray[] = [];
  for (const struct of chunksOf(column)) {
    const list = struct.children[dataAt]!;
    const sizes = struct.children[shapeAt]!.children[0]!.values as Int32Array;
    const offsets = list.valueOffsets as Int32Array;
    const items = list.children[0]!;
    for (let i = 0; i < struct.length; i++) {
      if (!struct.getValid(i)) {
        out.push(nullRow(valueType));
        continue;
      }
      const row = out.length;
      const shape = Array.from(sizes.subarray(i * ndim, (i + 1) * ndim));
      const start = offsets[i]!;
      const length = offsets[i + 1]! - start;
      if (length !== shape.reduce((n, s) => n * s, 1))
        fail(`${length} values do not fill shape [${shape.join(", ")}]`, row);
      const broken = shape.findIndex((s, d) => uniform?.[d] !== undefined && uniform[d] !== null && uniform[d] !== s);
      if (broken >= 0) fail(`dim ${broken} has size ${shape[broken]}, "uniform_shape" says ${uniform![broken]}`, row);
      out.push(layout.toArray(makeVector(items.slice(start, length)), shape, valueType));
    }
  }
  return out;
}

/**
 * Nd arrays as an `arrow.variable_shape_tensor` column named `name`: all
 * arrays share dim names (in order) and value type; sizes may differ. The
 * metadata has `dim_names` and `uniform_shape` (a dim's size where all
 * rows agree, else null). A rank-0 array holding a null is a null row (when
 * the others have dims).
 *
 * Throws `InvalidArgument` for no arrays or mixed value types and
 * `InvalidDims` for arrays whose dim names differ.
 */
export function toVariableShapeTensor(arrays: readonly NdArray[], name = "tensor"): TensorColumn {
  const { model, type, isNull } = rowModel(arrays);
  const names = model.dimNames;
  const ndim = names.length;
  const offsets = new Int32Array(arrays.length + 1);
  const sizes = new Int32Array(arrays.length * ndim);
  const uniform: (number | null)[] = model.shape;
  const parts: Data[] = [];
  arrays.forEach((array, i) => {
    offsets[i + 1] = offsets[i]! + (isNull[i] ? 0 : array.size);
    if (isNull[i]) return;
    if (array.dimNames.join("\u0000") !== names.join("\u0000")) {
      throw new NdArrowError(
        "InvalidDims",
        `array ${i} has dims ${dimsText(array.dims)}, array 0 has ${dimsText(model.dims)}`,
      );
    }
    sizes.set(array.shape, i * ndim);
    array.shape.forEach((s, d) => {
      if (uniform[d] !== s) uniform[d] = null;
    });
    parts.push(concatData(array.values.data));
  });
  const dataType = new List(new Field("item", type, true));
  const shapeType = new FixedSizeList(ndim, new Field("item", new Int32(), false));
  const storage = new Struct([new Field("data", dataType, true), new Field("shape", shapeType, true)]);
  const child = parts.length === 0 ? nullData(type, 0) : concatData(parts);
  const data = makeData({ type: dataType, length: arrays.length, nullCount: 0, valueOffsets: offsets, child });
  const shape = makeData({
    type: shapeType,
    length: arrays.length,
    nullCount: 0,
    child: makeData({ type: new Int32(), length: sizes.length, nullCount: 0, data: sizes }),
  });
  const { nullCount, nullBitmap } = validity(isNull);
  const struct = makeData({ type: storage, length: arrays.length, nullCount, nullBitmap, children: [data, shape] });
  const meta = { dim_names: names, uniform_shape: uniform };
  return { field: extensionField(name, storage, VARIABLE_SHAPE_TENSOR, meta), vector: makeVector(struct) };
}

type Metadata = Record<string, unknown>;

/** The extension metadata of `field` as JSON, after checking the extension name. */
function extensionMetadata(field: Field, extension: string): Metadata {
  const fail = (why: string): never => {
    throw new NdArrowError("InvalidLayout", `not an ${extension} column: ${why}`, { column: field.name });
  };
  const name = field.metadata.get(EXTENSION_NAME_KEY);
  if (name !== extension) fail(`${EXTENSION_NAME_KEY} is ${name === undefined ? "missing" : `"${name}"`}`);
  const text = field.metadata.get(EXTENSION_METADATA_KEY) ?? "";
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new NdArrowError("InvalidLayout", `${EXTENSION_METADATA_KEY} is not JSON`, { column: field.name, cause });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    fail(`${EXTENSION_METADATA_KEY} is not a JSON object`);
  return parsed as Metadata;
}

function isSizes(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((s) => Number.isInteger(s) && s >= 0);
}

/** How physical tensors become logical nd arrays: dim names and the permutation. */
interface LogicalLayout {
  toArray(values: Vector, shape: readonly number[], valueType: DataType): NdArray;
}

/** Reads `dim_names` and `permutation` (checked against the rank of `shape`). */
function logicalLayout(column: string, meta: Metadata, shape: readonly number[]): LogicalLayout {
  const rank = shape.length;
  const fail = (why: string): never => {
    throw new NdArrowError("InvalidLayout", `tensor metadata: ${why}`, { column });
  };
  const dimNames = meta.dim_names ?? Array.from({ length: rank }, (_, i) => `dim_${i}`);
  if (!Array.isArray(dimNames) || dimNames.length !== rank || !dimNames.every((n) => typeof n === "string")) {
    return fail(`"dim_names" must be ${rank} strings, got ${JSON.stringify(meta.dim_names)}`);
  }
  const permutation = meta.permutation ?? Array.from({ length: rank }, (_, i) => i);
  const isPermutation =
    Array.isArray(permutation) &&
    permutation.length === rank &&
    [...permutation].sort((a, b) => a - b).every((p, i) => p === i);
  if (!isPermutation)
    return fail(`"permutation" must be a permutation of 0..${rank - 1}, got ${JSON.stringify(permutation)}`);
  const perm = permutation as number[];
  const identity = perm.every((p, i) => p === i);
  return {
    toArray(values, physical, valueType) {
      const dims: Dim[] = perm.map((p) => ({ name: dimNames[p] as string, size: physical[p]! }));
      if (identity) return new NdArray(values, dims);
      const strides = rowMajorStrides(physical);
      const sizes = dims.map((d) => d.size);
      const walk = perm.map((p) => strides[p]!);
      const logical = values.length === 0 ? makeVector(nullData(valueType, 0)) : takeStrided(values, sizes, walk);
      return new NdArray(logical, dims);
    },
  };
}

/** The value type `T` of a list-like storage field, checked against FORMAT.md section 3. */
function valueTypeOf(field: Field): DataType {
  const item = (field.type as List | FixedSizeList).children[0]!.type;
  if (!isSupportedValueType(item)) {
    throw new NdArrowError("UnsupportedType", `unsupported tensor value type ${item}`, { column: field.name });
  }
  return item;
}

function chunksOf(column: Vector | Data): Data[] {
  return "data" in column && Array.isArray(column.data) ? [...(column as Vector).data] : [column as Data];
}

/** A null tensor row: a rank-0 null scalar of the value type, as `decode` gives for a null row. */
function nullRow(valueType: DataType): NdArray {
  return new NdArray(makeVector(nullData(valueType, 1)), []);
}

/** The array that sets dims and type, the value type, and which rows are null. */
function rowModel(arrays: readonly NdArray[]): { model: NdArray; type: DataType; isNull: boolean[] } {
  const first = arrays[0];
  if (first === undefined)
    throw new NdArrowError("InvalidArgument", "no arrays: a tensor column needs at least one to know its type");
  const model = arrays.find((a) => a.rank > 0) ?? first;
  const isNull = arrays.map((a) => model.rank > 0 && a.rank === 0 && a.values.nullCount === 1);
  arrays.forEach((a, i) => {
    if (!sameType(a.type, model.type)) {
      throw new NdArrowError("InvalidArgument", `array ${i} is ${a.type}, the others are ${model.type}`);
    }
  });
  return { model, type: model.type, isNull };
}

function validity(isNull: readonly boolean[]): { nullCount: number; nullBitmap: Uint8Array | undefined } {
  const nullCount = isNull.filter(Boolean).length;
  if (nullCount === 0) return { nullCount, nullBitmap: undefined };
  const nullBitmap = new Uint8Array((isNull.length + 7) >> 3);
  isNull.forEach((n, i) => {
    if (!n) nullBitmap[i >> 3]! |= 1 << (i & 7);
  });
  return { nullCount, nullBitmap };
}

function sameDims(a: readonly Dim[], b: readonly Dim[]): boolean {
  return a.length === b.length && a.every((d, i) => d.name === b[i]!.name && d.size === b[i]!.size);
}

function dimsText(dims: readonly Dim[]): string {
  return `[${dims.map((d) => `${d.name}: ${d.size}`).join(", ")}]`;
}

function extensionField(name: string, type: DataType, extension: string, meta: Metadata): Field {
  const metadata = new Map([
    [EXTENSION_NAME_KEY, extension],
    [EXTENSION_METADATA_KEY, JSON.stringify(meta)],
  ]);
  return new Field(name, type, true, metadata);
}
