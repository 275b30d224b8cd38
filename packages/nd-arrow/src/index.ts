/**
 * @lance-nd/nd-arrow: named-dimension arrays and record batches in Apache Arrow.
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
