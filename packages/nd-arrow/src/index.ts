/**
 * @lance-nd/nd-arrow: named-dimension arrays and record batches in Apache
 * Arrow (the nd-arrow format, version 1; see FORMAT.md).
 *
 * @example
 * import { NdArray, NdRecordBatch, encode, decode, attr } from "@lance-nd/nd-arrow";
 *
 * const sst = NdArray.from(new Float32Array(2 * 3), {
 *   dims: { lat: 2, lon: 3 },
 *   attrs: { units: "K", valid_range: attr.float32([270, 310]) },
 * });
 * const rb = encode([new NdRecordBatch({ sst }, { id: "a" })]); // Arrow RecordBatch, one row
 * const [batch] = decode(rb);                                   // NdRecordBatch[]
 * batch?.grid(); // [{ name: "lat", size: 2 }, { name: "lon", size: 3 }]
 */
export { NdArrowError, isNdArrowError } from "./errors.js";
export type { NdArrowErrorCode, NdArrowErrorContext } from "./errors.js";
export {
  ND_ARRAY_EXTENSION,
  GLOBAL_ATTRS_EXTENSION,
  GLOBAL_ATTRS_COLUMN,
  EXTENSION_NAME_KEY,
  EXTENSION_METADATA_KEY,
  isSupportedValueType,
  isSupportedAttrType,
  arrayColumnType,
  arrayColumnField,
  globalAttrsField,
  isArrayColumn,
  isGlobalAttrsColumn,
  arrayColumnLayout,
} from "./schema.js";
export type { ArrayColumnLayout } from "./schema.js";
export type { TypedArray } from "./data-type.js";
export { toVector, isVector } from "./values.js";
export type { ValuesInput } from "./values.js";
export { Attr, attr, toAttr, toAttrs } from "./attrs.js";
export type { Attrs, AttrInput, AttrsInput, AttrHelper, AttrPlace, TimeUnitName } from "./attrs.js";
export { NdArray, checkDims } from "./ndarray.js";
export type { Dim, DimsInput, NdArrayOptions } from "./ndarray.js";
export { NdRecordBatch } from "./batch.js";
export type { ArraysInput } from "./batch.js";
export { encode, encodeSchema } from "./encode.js";
export type { EncodeOptions } from "./encode.js";
export { decode } from "./decode.js";
export type { DecodeOptions } from "./decode.js";
export { encodeStream, decodeStream } from "./stream.js";
export type { EncodeStreamOptions } from "./stream.js";
export { broadcast, broadcastBatch } from "./broadcast.js";
export { flatten } from "./flatten.js";
export { chunk, CHUNK_OFFSET } from "./chunk.js";
export { assemble } from "./assemble.js";
export type { AssembleOptions } from "./assemble.js";
export { resolveSelection, slice, sliceBounds } from "./window.js";
export type { SelectedDim, Selection, Window } from "./window.js";
export type { NdRowPlan, NdSource, NdSourceVariable } from "./source.js";
export {
  FIXED_SHAPE_TENSOR,
  VARIABLE_SHAPE_TENSOR,
  fromFixedShapeTensor,
  toFixedShapeTensor,
  fromVariableShapeTensor,
  toVariableShapeTensor,
} from "./tensor.js";
export type { TensorColumn } from "./tensor.js";
