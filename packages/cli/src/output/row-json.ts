/**
 * NdRecordBatches (table rows) as JSON, for `scan --json` / `--ndjson`,
 * written as a stream: a row's attributes and dims are small and go through
 * `JSON.stringify`; its values are formatted and written a slice at a time,
 * so no row is ever one string (V8 caps strings at 2^29 - 24 characters, and
 * one 128 MiB Float32 row is about 600 million characters of JSON).
 */
import { Precision, Type, type Vector } from "apache-arrow";
import type { Attrs, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { jsonReplacer } from "../io.js";
import { byteText, isByteStrings } from "./byte-text.js";
import type { SinkWriter } from "./sink-writer.js";
import { timeFormat, timeTexts, type TimeFormat } from "./time-text.js";

/** Values formatted and written per slice. */
const SLICE_VALUES = 16_384;
/** Stands for a values array in the skeleton's JSON (with a per-process nonce, so no attribute text matches it). */
const PLACEHOLDER = `\u0001values:${Math.random().toString(36).slice(2)}:`;

/** How a row's JSON is laid out. */
export interface JsonLayout {
  /** Two-space indentation, one value per line (as `JSON.stringify(v, null, 2)`); false: one line. */
  pretty: boolean;
  /** Indentation levels before each line after the first (a row inside the `--json` array: 1). */
  level: number;
  /** Times as numbers (`scan --time-numbers`: timestamps as epoch milliseconds, CF times as stored); false: as dates (`time-text.ts`). */
  timeNumbers?: boolean;
}

/**
 * Writes one row as a JSON object: `globalAttrs` (attributes as JS values,
 * see nd-arrow's `Attr.toJS`) and `arrays` by name, each with `type`, `dims`,
 * `attrs` and `values` (row-major, `null` for a null value). 64-bit integers
 * are written as decimal strings (`"9007199254740993"`), non-finite floats as
 * strings (`"NaN"`), like the command line's other JSON. Timestamps and
 * numbers with CF time units are date strings (`"2001-03-15T00:00:00Z"`,
 * `"2000-02-30 00:00:00"` in a 360_day calendar) unless `layout.timeNumbers`.
 */
export async function writeRowJson(out: SinkWriter, batch: NdRecordBatch, layout: JsonLayout): Promise<void> {
  const arrays = batch.arrays();
  const skeleton = {
    globalAttrs: attrsJson(batch.globalAttrs),
    arrays: Object.fromEntries(
      arrays.map(([name, array], i) => [
        name,
        {
          type: String(array.type),
          dims: array.dims.map(({ name: dim, size }) => ({ name: dim, size })),
          attrs: attrsJson(array.attrs),
          values: `${PLACEHOLDER}${i}`,
        },
      ]),
    ),
  };
  const margin = "  ".repeat(layout.level);
  let text = JSON.stringify(skeleton, jsonReplacer, layout.pretty ? 2 : undefined);
  if (layout.pretty && layout.level > 0) text = text.replaceAll("\n", `\n${margin}`);
  for (const [i, [, array]] of arrays.entries()) {
    const marker = JSON.stringify(`${PLACEHOLDER}${i}`);
    const at = text.indexOf(marker);
    const before = text.slice(0, at);
    await out.text(before);
    const lineIndent = /^ */.exec(before.slice(before.lastIndexOf("\n") + 1))![0];
    const format = layout.timeNumbers ? undefined : timeFormat(array);
    await writeValues(out, array, layout.pretty ? lineIndent : undefined, format);
    text = text.slice(at + marker.length);
  }
  await out.text(text);
}

/** Attributes as a JSON object (lists as arrays). */
export function attrsJson(attrs: Attrs): Record<string, unknown> {
  return Object.fromEntries([...attrs].map(([key, attr]) => [key, attr.toJS()]));
}

/** The values of `array` as a JSON array, a slice at a time; `lineIndent` undefined: one line; times as dates with `format`. */
async function writeValues(
  out: SinkWriter,
  array: NdArray,
  lineIndent: string | undefined,
  format: TimeFormat | undefined,
): Promise<void> {
  const values = array.values;
  if (values.length === 0) {
    await out.text("[]");
    return;
  }
  const separator = lineIndent === undefined ? "," : `,\n${lineIndent}  `;
  await out.text(lineIndent === undefined ? "[" : `[\n${lineIndent}  `);
  for (let start = 0; start < values.length; start += SLICE_VALUES) {
    const part = values.slice(start, Math.min(values.length, start + SLICE_VALUES));
    const slice = format === undefined ? sliceValues(part) : timeTexts(part, format);
    const texts = new Array<string>(slice.length);
    for (let i = 0; i < slice.length; i++) texts[i] = valueJson(slice[i]);
    await out.text((start === 0 ? "" : separator) + texts.join(separator));
  }
  await out.text(lineIndent === undefined ? "]" : `\n${lineIndent}]`);
}

/** The values of a slice as JS values: a typed array for numbers without nulls, byte strings as text (`byte-text.ts`), else an array with nulls. */
function sliceValues(values: Vector): ArrayLike<unknown> {
  const { type } = values;
  if (isByteStrings(type))
    return Array.from(values as Iterable<Uint8Array | null>, (v) => (v === null ? v : byteText(v)));
  const numeric = type.typeId === Type.Int || type.typeId === Type.Float;
  if (!numeric || values.nullCount > 0) return Array.from(values);
  if (type.typeId === Type.Float && (type as { precision?: Precision }).precision === Precision.HALF)
    return Float32Array.from(values as Iterable<number>);
  return values.toArray() as ArrayLike<unknown>;
}

/** One value as JSON text, as `JSON.stringify` with the command line's replacer writes it. */
function valueJson(value: unknown): string {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : `"${String(value)}"`;
  if (typeof value === "bigint") return `"${value.toString()}"`;
  if (value === null || value === undefined) return "null";
  return JSON.stringify(value, jsonReplacer) ?? "null";
}
