/** Small builders of nd schemas (nd-arrow's encoded schema) for the tests. */
import { Field, List, Schema } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { arrayColumnField, globalAttrsField } from "@lance-nd/nd-arrow";
import { isFormatError, type FormatError, type FormatErrorCode } from "../src/index.js";

/** An attribute field (each attribute key is nullable). */
export function attrField(name: string, type: DataType): Field {
  return new Field(name, type, true);
}

/** A List<T> attribute type. */
export function listOf(type: DataType): List {
  return new List(new Field("item", type, true));
}

/** An nd schema: array columns `[name, valueType, attrs?]` and global attributes. */
export function ndSchemaOf(
  arrays: ReadonlyArray<readonly [string, DataType, Field[]?]>,
  globalAttrs: Field[] = [],
): Schema {
  const fields = arrays.map(([name, type, attrs]) => arrayColumnField(name, type, attrs ?? []));
  if (globalAttrs.length > 0) fields.push(globalAttrsField(globalAttrs));
  return new Schema(fields);
}

/** The FormatError `fn` throws; fails the test when it throws nothing or another error, or another code. */
export function formatErrorOf(fn: () => unknown, code: FormatErrorCode): FormatError {
  try {
    fn();
  } catch (err) {
    if (isFormatError(err, code)) return err;
    throw new Error(`expected FormatError ${code}, got ${String(err)}`, { cause: err });
  }
  throw new Error(`expected FormatError ${code}, nothing was thrown`);
}
