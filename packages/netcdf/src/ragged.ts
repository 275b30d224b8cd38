/**
 * Variables shorter than their unlimited dim. In netCDF-4 each variable
 * along an unlimited dim has its own length, and the dim's length is the
 * longest; netCDF-C reads the records a variable never wrote as its fill
 * value. So does this: a slab past a variable's own extent is read where it
 * overlaps the extent and filled with the fill value elsewhere.
 */
import { defaultFillValue } from "@lance-nd/cf";
import { ncDtype } from "./nc-dtype.js";
import type { NcType, NumericArray, RawAttr, SlabValues } from "./raw.js";

/** The part of the slab `start`/`count` inside `extent`: its count per dim (0 somewhere when none). */
export function overlapCount(extent: readonly number[], start: readonly number[], count: readonly number[]): number[] {
  return count.map((c, i) => Math.max(0, Math.min(c, extent[i]! - start[i]!)));
}

/**
 * The slab of `count` values whose leading part `inner` (of shape `overlap`)
 * was read: `inner`'s values in place, the fill value (the variable's
 * `_FillValue`, else netCDF's default; NUL for char, "" for strings) elsewhere.
 */
export function padSlab(
  type: NcType,
  attrs: readonly RawAttr[],
  inner: SlabValues,
  overlap: readonly number[],
  count: readonly number[],
): SlabValues {
  const total = count.reduce((n, c) => n * c, 1);
  const own = attrs.find((a) => a.name === "_FillValue")?.value;
  if ("strings" in inner) {
    const out = new Array<string | null>(total).fill(typeof own?.[0] === "string" ? own[0] : "");
    copyBlock(inner.strings, out, overlap, count);
    return { strings: out };
  }
  if ("chars" in inner) {
    const fill = typeof own?.[0] === "string" ? (new TextEncoder().encode(own[0])[0] ?? 0) : 0;
    const out = new Uint8Array(total).fill(fill);
    copyBlock(inner.chars, out, overlap, count);
    return { chars: out };
  }
  const out = new (inner.constructor as new (n: number) => NumericArray)(total);
  const fill = own !== undefined && typeof own[0] !== "string" ? own[0]! : defaultFillValue(ncDtype(type)!);
  out.fill(fill as never);
  copyBlock(inner, out, overlap, count);
  return out;
}

/** Copies the row-major block `from` (shape `inner`) into the corner of `to` (shape `outer`). */
function copyBlock(
  from: ArrayLike<unknown>,
  to: { [i: number]: unknown },
  inner: readonly number[],
  outer: readonly number[],
): void {
  const cells = inner.reduce((n, c) => n * c, 1);
  const index = new Array<number>(inner.length).fill(0);
  for (let i = 0; i < cells; i++) {
    let at = 0;
    for (let d = 0; d < outer.length; d++) at = at * outer[d]! + index[d]!;
    to[at] = from[i]!;
    for (let d = inner.length - 1; d >= 0; d--) {
      if (++index[d]! < inner[d]!) break;
      index[d] = 0;
    }
  }
}
