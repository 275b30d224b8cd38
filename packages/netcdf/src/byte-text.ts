/**
 * Char variables whose values are not UTF-8 text (Latin-1, raw bytes):
 * they read as byte strings (Arrow Binary, numpy's `|S<n>`, the way Zarr
 * byte strings come in) rather than refusing the file (README,
 * "Conformance"). Whether a variable is text or bytes is decided once, when
 * the file opens, over all its values, so that every row of it has one type.
 */
import { Binary, Vector, makeData } from "apache-arrow";
import type { RawFile, RawVariable } from "./raw.js";
import { invalidUtf8At, unpaddedCharRows } from "./raw.js";

/** Bytes of char data read at once while looking for text that is not UTF-8. */
const SCAN_BYTES = 16 * 2 ** 20;

/** The char variables of `raw` with a value that is not UTF-8 (each row without its trailing NULs), read in slabs of about 16 MiB. */
export async function byteTextVariables(raw: RawFile): Promise<Set<string>> {
  const found = new Set<string>();
  for (const variable of raw.variables) {
    if (variable.type === "char" && !(await isUtf8(raw, variable))) found.add(variable.name);
  }
  return found;
}

/** True when every row of the char `variable` is UTF-8. */
async function isUtf8(raw: RawFile, variable: RawVariable): Promise<boolean> {
  const sizes = variable.dims.map((d) => d.size);
  if (sizes.some((s) => s === 0)) return true;
  const width = sizes.length === 0 ? 1 : sizes.at(-1)!;
  if (sizes.length <= 1) return rowsAreUtf8(await charsOf(raw, variable, [], []), width);
  const perOuter = sizes.slice(1).reduce((n, s) => n * s, 1);
  const step = Math.max(1, Math.floor(SCAN_BYTES / perOuter));
  for (let at = 0; at < sizes[0]!; at += step) {
    const count = [Math.min(step, sizes[0]! - at), ...sizes.slice(1)];
    const start = sizes.map((_, i) => (i === 0 ? at : 0));
    if (!rowsAreUtf8(await charsOf(raw, variable, start, count), width)) return false;
  }
  return true;
}

/** The chars of a slab (the whole variable when `count` is empty). */
async function charsOf(
  raw: RawFile,
  variable: RawVariable,
  start: readonly number[],
  count: readonly number[],
): Promise<Uint8Array> {
  const whole = count.length === 0;
  const slab = await raw.readSlab(
    variable,
    whole ? variable.dims.map(() => 0) : start,
    whole ? variable.dims.map((d) => d.size) : count,
  );
  return "chars" in slab ? slab.chars : new Uint8Array(0);
}

/** True when each `width`-byte row of `chars`, without its trailing NULs, is UTF-8. */
function rowsAreUtf8(chars: Uint8Array, width: number): boolean {
  for (let start = 0; start < chars.length; start += width) {
    let len = Math.min(width, chars.length - start);
    while (len > 0 && chars[start + len - 1] === 0) len--;
    if (invalidUtf8At(chars.subarray(start, start + len)) >= 0) return false;
  }
  return true;
}

/** Fixed-width char rows as byte strings, each without its trailing NUL padding (as text rows lose theirs). */
export function binaryFromCharRows(chars: Uint8Array, count: number, width: number): Vector {
  const values = unpaddedCharRows(chars, count, width);
  return new Vector([
    makeData({ type: new Binary(), length: count, valueOffsets: values.offsets, data: values.bytes }),
  ]);
}
