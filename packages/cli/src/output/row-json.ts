/** NdRecordBatches (table rows) as JSON values, for `scan --json` / `--ndjson`. */
import type { Attrs, Dim, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";

/** One array in JSON: its type, dims, attributes and values (row-major). */
export interface ArrayJson {
  type: string;
  dims: Dim[];
  attrs: Record<string, unknown>;
  values: unknown[];
}

/** One row in JSON: global attributes and arrays by name. */
export interface RowJson {
  globalAttrs: Record<string, unknown>;
  arrays: Record<string, ArrayJson>;
}

/**
 * A row as plain JSON data: attributes as JS values (see nd-arrow's
 * `Attr.toJS`), values as an array with `null`s. 64-bit integers stay
 * bigints and non-finite floats stay numbers: `printJson` writes them as
 * strings (`"9007199254740993"`, `"NaN"`).
 */
export function rowJson(batch: NdRecordBatch): RowJson {
  return {
    globalAttrs: attrsJson(batch.globalAttrs),
    arrays: Object.fromEntries(batch.arrays().map(([name, array]) => [name, arrayJson(array)])),
  };
}

function arrayJson(array: NdArray): ArrayJson {
  const values = array.toArray();
  return {
    type: String(array.type),
    dims: array.dims.map(({ name, size }) => ({ name, size })),
    attrs: attrsJson(array.attrs),
    values: Array.isArray(values) ? values : Array.from(values as ArrayLike<unknown>),
  };
}

/** Attributes as a JSON object (lists as arrays). */
export function attrsJson(attrs: Attrs): Record<string, unknown> {
  return Object.fromEntries([...attrs].map(([key, attr]) => [key, attr.toJS()]));
}
