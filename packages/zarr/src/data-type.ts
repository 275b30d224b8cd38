/**
 * Zarr data types and their nd-arrow value types (README "Types"). A Zarr
 * type maps to an Arrow type only where the values keep their meaning;
 * everything else is refused with `UnsupportedType` naming the array.
 */
import { Binary, Bool, DataType, DateDay, Duration, Float16, TimeUnit, Timestamp, Type, Utf8 } from "apache-arrow";
import { arrowType, dtypeOf, isDtype, type Dtype } from "@lance-nd/cf";
import type { DataType as ZarritaType } from "zarrita";
import { ZarrError } from "./zarr-error.js";
import type { ZarrErrorContext } from "./zarr-error.js";

/** How the values of one Zarr type are read and what they become. */
export interface ZarrType {
  /** The type as the store writes it: `"<f4"`, `"|O"`, `"<M8[ns]"`, `"float32"`, `"string"`. */
  readonly stored: string;
  /** @internal The zarrita type that reads the stored bytes (`int64` for `<M8[ns]`, `uint16` for `float16`). */
  readonly read: ZarritaType;
  /** Byte order of multi-byte v2 types. */
  readonly endian: "little" | "big";
  /** The nd-arrow value type. */
  readonly arrow: DataType;
  /** How raw values become Arrow values (see values.ts). */
  readonly kind: "plain" | "bool" | "text" | "bytes" | "time";
  /** Bytes per value of a `|S<n>` type (`n`). */
  readonly width?: number;
}

/**
 * The numeric type of a v2 type code without its byte order (`f4`, `u2`,
 * `i8`): its v3 name, which is its numpy name (`float32`, `uint16`, `int64`).
 */
function numericOfV2Code(kind: string, size: string): Dtype | undefined {
  const family = kind === "i" ? "int" : kind === "u" ? "uint" : kind === "f" ? "float" : undefined;
  const name = family === undefined ? undefined : `${family}${Number(size) * 8}`;
  return isDtype(name) ? name : undefined;
}

/** The v2 type code of a numeric type without its byte order: `float32` is `f4`. */
function v2CodeOf(dtype: Dtype): string {
  const bits = Number(/\d+$/.exec(dtype)![0]);
  return `${dtype[0] === "u" ? "u" : dtype[0] === "f" ? "f" : "i"}${bits / 8}`;
}

const TIME_UNITS: Readonly<Record<string, TimeUnit>> = {
  s: TimeUnit.SECOND,
  ms: TimeUnit.MILLISECOND,
  us: TimeUnit.MICROSECOND,
  ns: TimeUnit.NANOSECOND,
};

/**
 * The {@link ZarrType} of a v2 `dtype` (numpy's type string). Strings: `<U`
 * (UTF-32) and `|O` with a `vlen-utf8` filter are Utf8, `|S` is Binary;
 * `<M8[unit]` is Timestamp (`D`: Date32), `<m8[unit]` is Duration, NaT a
 * null. Complex, structured, void and object types other than vlen-utf8
 * strings are `UnsupportedType`.
 */
export function fromV2Dtype(dtype: unknown, filterIds: readonly string[], where: ZarrErrorContext): ZarrType {
  if (typeof dtype !== "string") {
    throw new ZarrError(
      "UnsupportedType",
      `structured dtype ${JSON.stringify(dtype)} has no nd-arrow counterpart`,
      where,
    );
  }
  const refuse = (why: string): never => {
    throw new ZarrError("UnsupportedType", `dtype "${dtype}" ${why}`, where);
  };
  if (dtype === "|O") {
    if (filterIds.includes("vlen-utf8"))
      return { stored: dtype, read: "v2:object", endian: "little", arrow: new Utf8(), kind: "text" };
    return refuse(
      `(objects encoded with [${filterIds.join(", ")}]) has no nd-arrow counterpart; only vlen-utf8 strings map (to Utf8)`,
    );
  }
  const match = /^([<>|=])([a-zA-Z])(\d*)(?:\[(\w+)\])?$/.exec(dtype);
  if (match === null) return refuse("is not a numpy type string");
  const [, order, code, size, unit] = match as unknown as [string, string, string, string, string | undefined];
  const endian = order === ">" ? "big" : "little";
  const numeric = numericOfV2Code(code, size);
  if (numeric !== undefined) return { stored: dtype, read: numeric, endian, arrow: arrowType(numeric), kind: "plain" };
  switch (code) {
    case "b":
      if (size === "1") return { stored: dtype, read: "bool", endian, arrow: new Bool(), kind: "bool" };
      break;
    case "f":
      if (size === "2") return { stored: dtype, read: "uint16", endian, arrow: new Float16(), kind: "plain" };
      break;
    case "U":
      return { stored: dtype, read: `v2:U${Number(size)}`, endian, arrow: new Utf8(), kind: "text" };
    case "S":
      return {
        stored: dtype,
        read: `v2:S${Number(size)}`,
        endian,
        arrow: new Binary(),
        kind: "bytes",
        width: Number(size),
      };
    case "M":
    case "m": {
      const arrow = timeType(code, unit);
      if (arrow === undefined)
        return refuse(`has the time unit "${unit ?? ""}"; nd-arrow maps s, ms, us, ns (and D for datetime64)`);
      return { stored: dtype, read: "int64", endian, arrow, kind: "time" };
    }
    case "c":
      return refuse("is complex; nd-arrow has no complex type (store real and imaginary parts as two arrays)");
  }
  return refuse("has no nd-arrow counterpart");
}

function timeType(code: string, unit: string | undefined): DataType | undefined {
  if (code === "M" && unit === "D") return new DateDay();
  const arrowUnit = unit === undefined ? undefined : TIME_UNITS[unit];
  if (arrowUnit === undefined) return undefined;
  return code === "M" ? new Timestamp(arrowUnit) : new Duration(arrowUnit);
}

/**
 * The {@link ZarrType} of a v3 `data_type`: the core numeric types, `bool`,
 * `float16`, the `string` extension (vlen-utf8) and zarr-python's
 * `numpy.datetime64` / `numpy.timedelta64` extensions (units s, ms, us, ns,
 * scale factor 1; NaT is null). Complex, raw (`r*`) and
 * other extension types are `UnsupportedType`.
 */
export function fromV3DataType(dataType: unknown, where: ZarrErrorContext): ZarrType {
  const name = typeof dataType === "string" ? dataType : JSON.stringify(dataType);
  if (isDtype(dataType))
    return { stored: name, read: dataType, endian: "little", arrow: arrowType(dataType), kind: "plain" };
  if (dataType === "bool") return { stored: name, read: "bool", endian: "little", arrow: new Bool(), kind: "bool" };
  if (dataType === "float16")
    return { stored: name, read: "uint16", endian: "little", arrow: new Float16(), kind: "plain" };
  if (dataType === "string") return { stored: name, read: "string", endian: "little", arrow: new Utf8(), kind: "text" };
  const time = numpyTimeType(dataType);
  if (time !== undefined) return { stored: name, read: "int64", endian: "little", arrow: time, kind: "time" };
  const why = /^complex/.test(name) ? "is complex; nd-arrow has no complex type" : "has no nd-arrow counterpart";
  throw new ZarrError("UnsupportedType", `data type ${name} ${why}`, where);
}

/** The Arrow type of zarr-python's `{ name: "numpy.datetime64" | "numpy.timedelta64", configuration: { unit, scale_factor } }`. */
function numpyTimeType(dataType: unknown): DataType | undefined {
  if (typeof dataType !== "object" || dataType === null) return undefined;
  const { name, configuration } = dataType as {
    name?: unknown;
    configuration?: { unit?: unknown; scale_factor?: unknown };
  };
  if (name !== "numpy.datetime64" && name !== "numpy.timedelta64") return undefined;
  if ((configuration?.scale_factor ?? 1) !== 1) return undefined;
  return timeType(
    name === "numpy.datetime64" ? "M" : "m",
    typeof configuration?.unit === "string" ? configuration.unit : undefined,
  );
}

/** The Zarr type a written array of Arrow `type` gets, for one format version. */
export interface WriteType {
  /** v2 `dtype` or v3 `data_type`. */
  readonly name: string;
  /** Bytes per value, 0 for variable-length strings. */
  readonly itemSize: number;
  /** How the values are laid out in a chunk (see chunk-bytes.ts): `bytes` is `|S<itemSize>`. */
  readonly layout: "plain" | "bool" | "text" | "bytes";
}

/**
 * The Zarr type of Arrow `type` in format `version`: numbers and Bool in
 * both, Utf8 as `|O` + vlen-utf8 (v2) or `string` (v3), Timestamp (no time
 * zone or UTC) and Duration as `<M8[unit]` / `<m8[unit]` in v2 only (v3 has
 * no core time type: CF-encode the times first); with a `byteWidth`
 * (byte-strings.ts), Binary, and Utf8 read from a char variable, as
 * `|S<byteWidth>` in v2 (Utf8 stays `string` in v3). Anything else is
 * `UnsupportedType`.
 */
export function toZarrType(type: DataType, version: 2 | 3, where: ZarrErrorContext, byteWidth?: number): WriteType {
  if (byteWidth !== undefined && version === 2) return { name: `|S${byteWidth}`, itemSize: byteWidth, layout: "bytes" };
  if (DataType.isInt(type) || DataType.isFloat(type)) {
    const found = dtypeOf(type);
    const bytes = DataType.isInt(type) ? type.bitWidth / 8 : type.precision === 0 ? 2 : type.precision === 1 ? 4 : 8;
    if (found !== undefined)
      return {
        name: version === 2 ? `${bytes === 1 ? "|" : "<"}${v2CodeOf(found)}` : found,
        itemSize: bytes,
        layout: "plain",
      };
    return { name: version === 2 ? "<f2" : "float16", itemSize: 2, layout: "plain" };
  }
  if (type.typeId === Type.Bool) return { name: version === 2 ? "|b1" : "bool", itemSize: 1, layout: "bool" };
  if (type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8)
    return { name: version === 2 ? "|O" : "string", itemSize: 0, layout: "text" };
  if (version === 2 && (type.typeId === Type.Timestamp || type.typeId === Type.Duration)) {
    const tz = type.typeId === Type.Timestamp ? (type as Timestamp).timezone : null;
    if (tz === null || tz === undefined || tz === "UTC" || tz === "+00:00") {
      const unit = Object.entries(TIME_UNITS).find(([, u]) => u === (type as Timestamp | Duration).unit)![0];
      return { name: `<${type.typeId === Type.Timestamp ? "M" : "m"}8[${unit}]`, itemSize: 8, layout: "plain" };
    }
  }
  const hint =
    version === 3 && (type.typeId === Type.Timestamp || type.typeId === Type.Duration)
      ? " (Zarr v3 has no time type; CF-encode times or write v2)"
      : version === 3 && type.typeId === Type.Binary
        ? " (write v2, which has |S<n> byte strings)"
        : "";
  throw new ZarrError("UnsupportedType", `${type} has no Zarr v${version} counterpart${hint}`, where);
}
