/**
 * Attribute types as the source file had them (CLI README, "Types over many
 * files"): a table holds one type per attribute, so an import of files
 * whose attribute types differ casts them to one (a `_FillValue` of -999s
 * in one file and -999.f in another become float32). Import records each
 * attribute it cast, with the type the file had, in {@link ATTR_DTYPES_ATTR};
 * export casts them back and drops the record. Where there is no record
 * (tables imported before the record), export still writes `_FillValue` in
 * the type of the values it writes, as netCDF-C requires; other attributes
 * keep their types (a file may hold a double `valid_range` on floats).
 */
import { Field, List } from "apache-arrow";
import { arrowType, castFill, dtypeOf, isDtype } from "@lance-nd/cf";
import type { Dtype } from "@lance-nd/cf";
import { Attr, attr, toVector } from "@lance-nd/nd-arrow";
import type { Attrs, NdArray } from "@lance-nd/nd-arrow";

/** The attribute (of a variable, or global) that records the source's type of each attribute an import cast: a JSON object, name to numpy dtype. */
export const ATTR_DTYPES_ATTR = "_lance_nd_attr_dtypes";

/**
 * `cast` (attributes after an import's casts) with a record of the types
 * `before` had where a number's type changed; `cast` itself when none did.
 */
export function recordAttrTypes(before: Attrs, cast: Attrs): Attrs {
  const changed: Record<string, Dtype> = {};
  for (const [key, was] of before) {
    const now = cast.get(key);
    const dtype = dtypeOf(was.itemType);
    if (now === undefined || dtype === undefined || dtypeOf(now.itemType) === dtype) continue;
    changed[key] = dtype;
  }
  if (Object.keys(changed).length === 0) return cast;
  return new Map([...cast, [ATTR_DTYPES_ATTR, attr.utf8(JSON.stringify(changed))]]);
}

/**
 * `attrs` with the types {@link recordAttrTypes} recorded given back (the
 * record dropped); then, for `values` of a numeric type, a `_FillValue` of
 * another type that casts exactly is cast to it.
 */
export function sourceAttrTypes(attrs: Attrs, values?: NdArray): Map<string, Attr> {
  const out = new Map(attrs);
  const record = out.get(ATTR_DTYPES_ATTR);
  out.delete(ATTR_DTYPES_ATTR);
  const recorded = record === undefined ? {} : (JSON.parse(String(record.toJS())) as Record<string, string>);
  for (const [key, dtype] of Object.entries(recorded)) {
    const a = out.get(key);
    const back = a === undefined || !isDtype(dtype) ? undefined : castExactly(a, dtype);
    if (back !== undefined) out.set(key, back);
  }
  const dtype = values === undefined ? undefined : dtypeOf(values.type);
  const fill = out.get("_FillValue");
  if (dtype === undefined || fill === undefined || "_FillValue" in recorded || dtypeOf(fill.itemType) === dtype)
    return out;
  const cast = castExactly(fill, dtype);
  if (cast !== undefined) out.set("_FillValue", cast);
  return out;
}

/** `a` with its numbers as `dtype`, or `undefined` when one is not a number or not exactly a value of `dtype`. */
function castExactly(a: Attr, dtype: Dtype): Attr | undefined {
  if (dtypeOf(a.itemType) === undefined) return undefined;
  const items: (number | bigint)[] = [];
  for (const v of a.value as Iterable<unknown>) {
    const cast = typeof v === "number" || typeof v === "bigint" ? castFill(v, dtype) : undefined;
    if (cast === undefined) return undefined;
    items.push(cast);
  }
  const item = arrowType(dtype);
  return new Attr(a.isList ? new List(new Field("item", item, true)) : item, toVector(items as never, item));
}
