/**
 * `scale_factor` / `add_offset` unpacking (`value * scale_factor +
 * add_offset`) and packing (`round_half_even((value - add_offset) /
 * scale_factor)`), with xarray's choice of the unpacked float type.
 */
import type { NdArray } from "@lance-nd/nd-arrow";
import { CfError } from "./cf-error.js";
import { arrowType, dtypeOf, dtypeRange, isBigIntDtype, isFloatDtype, newValues } from "./dtype.js";
import type { Dtype } from "./dtype.js";
import { numericAttr } from "./numeric-attr.js";
import { isValid, validityOf, valuesOf, vectorOf } from "./validity.js";

/** `scale_factor` and `add_offset` of an array, with the dtypes of the attributes. */
export interface Packing {
  readonly scale: number | undefined;
  readonly offset: number | undefined;
  readonly scaleDtype: Dtype | undefined;
  readonly offsetDtype: Dtype | undefined;
}

/** The packing attributes of `array`, or `undefined` when it has neither. */
export function packingOf(array: NdArray, variable?: string): Packing | undefined {
  const scale = numericAttr(array, "scale_factor", variable);
  const offset = numericAttr(array, "add_offset", variable);
  if (scale === undefined && offset === undefined) return undefined;
  const attrDtype = (key: string): Dtype | undefined => {
    const found = array.attrs.get(key);
    return found === undefined ? undefined : dtypeOf(found.itemType);
  };
  const one = (items: (number | bigint)[] | undefined, key: string): number | undefined => {
    if (items === undefined) return undefined;
    if (items.length !== 1)
      throw new CfError("InvalidAttribute", `must be one number, found ${items.length}`, { variable, attribute: key });
    return Number(items[0]);
  };
  return {
    scale: one(scale, "scale_factor"),
    offset: one(offset, "add_offset"),
    scaleDtype: attrDtype("scale_factor"),
    offsetDtype: attrDtype("add_offset"),
  };
}

/**
 * The float type packed values of `packed` unpack to, as xarray chooses it:
 * the type of `scale_factor` and `add_offset` when both are the same float
 * type (float64 for 32- and 64-bit integers), the type of `scale_factor`
 * alone, float64 whenever `add_offset` alone or types disagree.
 */
export function unpackedDtype(packed: Dtype, packing: Packing): "float32" | "float64" {
  const { scaleDtype, offsetDtype, scale, offset } = packing;
  const wide = packed === "int32" || packed === "uint32" || isBigIntDtype(packed) || packed === "float64";
  if (scale !== undefined && offset !== undefined) {
    if (scaleDtype === offsetDtype && scaleDtype === "float32") return wide ? "float64" : "float32";
    return "float64";
  }
  if (scale !== undefined) return scaleDtype === "float32" && !wide ? "float32" : "float64";
  return "float64";
}

/** `array` (packed, any integer or float type) unpacked to {@link unpackedDtype}; nulls stay nulls. */
export function unpack(array: NdArray, packing: Packing): NdArray {
  const packed = dtypeOf(array.type)!;
  const target = unpackedDtype(packed, packing);
  const scale = packing.scale ?? 1;
  const offset = packing.offset ?? 0;
  const source = valuesOf(array.values);
  const out = newValues(target, source.length) as Float32Array | Float64Array;
  if (target === "float32") {
    const s = Math.fround(scale);
    const o = Math.fround(offset);
    for (let i = 0; i < out.length; i++) out[i] = Math.fround(Number(source[i]) * s) + o;
  } else {
    for (let i = 0; i < out.length; i++) out[i] = Number(source[i]) * scale + offset;
  }
  return array.withValues(vectorOf(arrowType(target), out, validityOf(array.values)));
}

/**
 * The inverse of {@link unpack}: floats packed to `packed`, rounding half to
 * even for integer types as numpy's `around` does. A value that does not fit
 * the packed type is `OutOfRange` naming it.
 */
export function pack(array: NdArray, packing: Packing, packed: Dtype, variable?: string): NdArray {
  const scale = packing.scale ?? 1;
  const offset = packing.offset ?? 0;
  const source = valuesOf(array.values);
  const bits = validityOf(array.values);
  const out = newValues(packed, source.length);
  const integer = !isFloatDtype(packed);
  const [min, max] = dtypeRange(packed);
  const big = isBigIntDtype(packed);
  for (let i = 0; i < out.length; i++) {
    if (!isValid(bits, i)) continue;
    let v = (Number(source[i]) - offset) / scale;
    if (integer) {
      v = roundHalfEven(v);
      if (!(v >= min && v <= max)) {
        throw new CfError("OutOfRange", `value ${Number(source[i])} packs to ${v}, outside ${packed}`, {
          variable,
          attribute: "scale_factor",
        });
      }
    }
    out[i] = (big ? BigInt(v) : v) as never;
  }
  return array.withValues(vectorOf(arrowType(packed), out, bits));
}

/** Rounds to the nearest integer, ties to even (numpy's `around`). */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}
