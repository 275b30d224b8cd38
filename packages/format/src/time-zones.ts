/**
 * Time zones Lance can store (FORMAT.md, section 7, "Time zones with a
 * colon"): Lance writes a timestamp's type as `timestamp:<unit>:<zone>` and
 * splits that at `:`, so a zone with a colon (`+05:30`) makes it panic at
 * write time. Such a zone is refused before any write.
 */
import { Type, type DataType, type Field, type Schema, type Timestamp } from "apache-arrow";
import { GLOBAL_ATTRS_COLUMN } from "@lance-nd/nd-arrow";
import { FormatError } from "./errors.js";

/**
 * Throws `InvalidInput` for the first timestamp (value type or attribute, at
 * any depth) of `schema` whose time zone Lance cannot store: one with a `:`.
 * The error names the column, the attribute key and the zone, and says how
 * to write the same offset (`+0530`).
 */
export function checkStorableTimeZones(schema: Schema): void {
  for (const field of schema.fields) checkType(field.name, [], field.type);
}

function checkType(column: string, path: readonly string[], type: DataType): void {
  if (type.typeId === Type.Timestamp) {
    const zone = (type as Timestamp).timezone;
    if (zone?.includes(":")) throw unstorableZone(column, path, zone);
    return;
  }
  const isList = type.typeId === Type.List || type.typeId === Type.FixedSizeList;
  for (const child of (type.children ?? []) as Field[])
    checkType(column, isList ? path : [...path, child.name], child.type);
}

function unstorableZone(column: string, path: readonly string[], zone: string): FormatError {
  // An nd column is Struct<values, dim_names, dim_sizes, attrs: Struct<key...>>; `__global_attrs__` is Struct<key...>.
  const key = column === GLOBAL_ATTRS_COLUMN ? path[0] : path[0] === "attrs" ? path[1] : undefined;
  const place =
    key === undefined
      ? `variable "${column}"`
      : column === GLOBAL_ATTRS_COLUMN
        ? `global attribute "${key}"`
        : `variable "${column}" attribute "${key}"`;
  const compact = zone.replaceAll(":", "");
  return new FormatError(
    "InvalidInput",
    `${place}: time zone "${zone}" cannot be stored in Lance (a zone with ":" makes it fail at write time); write the same offset as "${compact}"`,
    { column, ...(key === undefined ? {} : { key }) },
  );
}
