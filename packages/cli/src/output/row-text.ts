/** NdRecordBatches (table rows) as short readable lines, for `scan`. */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { byteText, isByteStrings } from "./byte-text.js";
import { timeFormat, timeTexts } from "./time-text.js";

const PREVIEW_VALUES = 4;
const MAX_TEXT = 24;

/**
 * One line for a row: its `id` and `chunk_offset` (or, without them, its
 * first global attributes), then each array as `name type(dim=size, ...)`
 * and its first values (times as dates, or as stored numbers with `timeNumbers`).
 *
 * @example
 * rowLine(batch, 0);
 * // row 0  id="ocean.nc"  sst float32(time=3, lat=4, lon=5) [100, 200, 300, 400, …]  lat float32(lat=4) [-45, -15, 15, 45]
 */
export function rowLine(batch: NdRecordBatch, index: number, timeNumbers = false): string {
  const globals = [...batch.globalAttrs.keys()];
  const shown = globals.filter((k) => k === "id" || k === CHUNK_OFFSET);
  const keys = shown.length > 0 ? shown : globals.slice(0, 2);
  const attrs = keys.map((k) => `${k}=${formatValue(batch.globalAttr(k))}`);
  if (globals.length > keys.length) attrs.push(`(+${globals.length - keys.length} attrs)`);
  const arrays = batch.arrays().map(([name, array]) => `${name} ${arrayShape(array)} ${preview(array, timeNumbers)}`);
  return [`row ${index}`, ...attrs, ...arrays].join("  ");
}

/** `float32(time=3, lat=4, lon=5)`: the value type and the dims of an array. */
function arrayShape(array: NdArray): string {
  return `${String(array.type).toLowerCase()}(${array.dims.map((d) => `${d.name}=${d.size}`).join(", ")})`;
}

/**
 * The first values of an array: `[1, 2, 3, 4, …]`; times as dates
 * (`time-text.ts`) unless `timeNumbers`; byte strings as text (`byte-text.ts`).
 */
function preview(array: NdArray, timeNumbers: boolean): string {
  const values = array.values;
  const n = Math.min(values.length, PREVIEW_VALUES);
  const format = timeNumbers ? undefined : timeFormat(array);
  const bytes = isByteStrings(values.type);
  const at = (i: number): unknown => {
    const value = values.get(i);
    return bytes && value !== null ? byteText(value as Uint8Array) : value;
  };
  const items =
    format === undefined
      ? Array.from({ length: n }, (_, i) => formatValue(at(i)))
      : timeTexts(values.slice(0, n), format).map((text) => text ?? "null");
  return `[${items.join(", ")}${values.length > n ? ", …" : ""}]`;
}

/** A short text of one value: numbers compact, strings quoted and cut, lists in brackets. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
  if (typeof value === "string")
    return JSON.stringify(value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value);
  if (typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    const items = Array.from(value as ArrayLike<unknown>);
    const head = items.slice(0, PREVIEW_VALUES).map(formatValue).join(", ");
    return `[${head}${items.length > PREVIEW_VALUES ? ", …" : ""}]`;
  }
  if (value instanceof Date) return value.toISOString();
  return String(value);
}
