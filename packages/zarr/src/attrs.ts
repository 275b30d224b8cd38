/**
 * Zarr attributes (JSON) and nd-arrow attributes (README "Attributes").
 * JSON strings are Utf8, booleans Bool, integers Int64, other numbers
 * (`1.0` too: a {@link JsonFloat}) Float64, homogeneous arrays lists of those. The CF attributes that hold
 * values of the array (`_FillValue`, `missing_value`, `valid_min`,
 * `valid_max`, `valid_range`) take the array's own numeric type, as netCDF
 * stores them; the CF packing attributes (`scale_factor`, `add_offset`) are
 * Float64 (JSON writes `300.0` as `300`, CF wants a float). Anything else
 * (null, objects, mixed arrays) is `UnsupportedAttribute`.
 */
import { type Attr, attr, toAttr } from "@lance-nd/nd-arrow";
import type { Attrs } from "@lance-nd/nd-arrow";
import { DataType, Float64, Int64, Type } from "apache-arrow";
import { JsonFloat } from "./json-text.js";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** Attributes whose values are values of the array they describe. */
const VALUE_ATTRS = new Set(["_FillValue", "missing_value", "valid_min", "valid_max", "valid_range"]);

/** Attributes CF defines as floats. */
const FLOAT_ATTRS = new Set(["scale_factor", "add_offset"]);

/** The special float spellings of Zarr JSON (`"NaN"`, `"Infinity"`, `"-Infinity"`). */
const SPECIAL_FLOATS: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity: Infinity,
  "-Infinity": -Infinity,
};

/**
 * nd-arrow attributes of one Zarr attribute object. `valueType` is the
 * array's value type (numeric types type the value attributes); `skip`
 * names keys that are Zarr's own (`_ARRAY_DIMENSIONS`).
 */
export function attrsFromJson(
  json: Readonly<Record<string, unknown>>,
  valueType: DataType | undefined,
  where: ZarrErrorContext,
  skip: readonly string[] = [],
): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const [key, value] of Object.entries(json)) {
    if (skip.includes(key)) continue;
    const typed = VALUE_ATTRS.has(key) ? valueType : FLOAT_ATTRS.has(key) ? new Float64() : undefined;
    out.set(key, attrFromJson(key, value, typed, where));
  }
  return out;
}

/** One attribute; `valueType` (numeric) types a value attribute. */
export function attrFromJson(
  key: string,
  value: unknown,
  valueType: DataType | undefined,
  where: ZarrErrorContext,
): Attr {
  const refuse = (why: string): never => {
    throw new ZarrError("UnsupportedAttribute", `attribute "${key}" ${why}`, where);
  };
  const isFloat = (v: unknown) => v instanceof JsonFloat || (typeof v === "number" && !Number.isInteger(v));
  const written = Array.isArray(value) ? value : [value];
  const items = written.map((v) => (v instanceof JsonFloat ? v.value : v));
  const plain = Array.isArray(value) ? items : items[0];
  if (valueType !== undefined && (DataType.isInt(valueType) || DataType.isFloat(valueType))) {
    const numbers = items.map((v) => (typeof v === "string" && v in SPECIAL_FLOATS ? SPECIAL_FLOATS[v]! : v));
    const fits = (v: unknown) => typeof v === "number" && (DataType.isFloat(valueType) || Number.isSafeInteger(v));
    if (numbers.every(fits)) {
      const typed =
        DataType.isInt(valueType) && valueType.bitWidth === 64 ? numbers.map((v) => BigInt(v as number)) : numbers;
      return attr.of(valueType, Array.isArray(plain) ? typed : typed[0]);
    }
  }
  if (items.some((v) => v === null || (typeof v === "object" && v !== null))) {
    return refuse(
      `is ${jsonPreview(plain)}; nd-arrow attributes hold strings, numbers and booleans or lists of one of them`,
    );
  }
  const kinds = new Set(written.map((v) => (isFloat(v) ? "float" : typeof v === "number" ? "int" : typeof v)));
  if (kinds.has("int") && kinds.has("float")) {
    kinds.delete("int");
  }
  if (kinds.size > 1) return refuse(`mixes ${[...kinds].join(" and ")} values; nd-arrow list attributes hold one type`);
  if (kinds.has("int")) {
    if (items.some((v) => !Number.isSafeInteger(v))) return attr.of(new Float64(), plain);
    const ints = items.map((v) => BigInt(v as number));
    return attr.of(new Int64(), Array.isArray(plain) ? ints : ints[0]);
  }
  if (kinds.has("float") || (Array.isArray(plain) && plain.length === 0)) return attr.of(new Float64(), plain);
  return toAttr(plain as string | boolean | string[] | boolean[], { column: where.variable, key });
}

/** The longest JSON shown of an attribute refused. */
const PREVIEW_CHARS = 120;

/**
 * `value` as JSON for a message, cut at {@link PREVIEW_CHARS} characters;
 * an object nested deeper than `JSON.stringify` follows (a stack overflow)
 * is said to be one.
 */
function jsonPreview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) return "an object nested too deep to show";
    throw err;
  }
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS)}...`;
}

/**
 * The JSON object of nd-arrow attributes: strings, booleans and numbers
 * (64-bit integers as JSON numbers when they are safe integers; floats as
 * {@link JsonFloat}, written `1.0`, not `1`) and lists of them. NaN and infinities are written as `"NaN"`, `"Infinity"` and
 * `"-Infinity"` (the Zarr spelling). Temporal and out-of-range 64-bit
 * attributes are `UnsupportedAttribute`.
 */
export function attrsToJson(
  attrs: Attrs,
  where: ZarrErrorContext,
  skip: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of attrs) {
    if (skip.includes(key)) continue;
    out[key] = attrToJson(key, value, where);
  }
  return out;
}

/** One attribute's JSON value. */
export function attrToJson(key: string, value: Attr, where: ZarrErrorContext): unknown {
  const item = value.itemType;
  const known =
    DataType.isInt(item) ||
    DataType.isFloat(item) ||
    item.typeId === Type.Bool ||
    item.typeId === Type.Utf8 ||
    item.typeId === Type.LargeUtf8;
  if (!known)
    throw new ZarrError(
      "UnsupportedAttribute",
      `attribute "${key}" is ${value.type}, which Zarr JSON cannot hold`,
      where,
    );
  const toJson = (v: unknown): unknown => {
    if (typeof v === "bigint") {
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw new ZarrError(
          "UnsupportedAttribute",
          `attribute "${key}" holds ${v}, beyond the integers JSON keeps exactly`,
          where,
        );
      }
      return Number(v);
    }
    if (typeof v === "number" && !Number.isFinite(v)) return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
    if (typeof v === "number" && DataType.isFloat(item)) return new JsonFloat(v);
    return v;
  };
  const js = value.toJS();
  return Array.isArray(js) ? js.map(toJson) : toJson(js);
}
