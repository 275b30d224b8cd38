/**
 * The Arrow layout of nd-arrow columns (FORMAT.md section 2): builders for the
 * `nd_arrow.array` and `nd_arrow.global_attributes` fields, and a reader
 * that checks a field against the layout.
 */
import { DataType, Field, List, Struct, Type, Uint32, Utf8 } from "apache-arrow";
import { NdArrowError } from "./errors.js";

/** `ARROW:extension:name` of an nd array column. */
export const ND_ARRAY_EXTENSION = "nd_arrow.array";
/** `ARROW:extension:name` of the global attributes column. */
export const GLOBAL_ATTRS_EXTENSION = "nd_arrow.global_attributes";
/** The name of the global attributes column. */
export const GLOBAL_ATTRS_COLUMN = "__global_attrs__";
/** The Arrow field metadata key that names an extension type. */
export const EXTENSION_NAME_KEY = "ARROW:extension:name";
/** The Arrow field metadata key that holds an extension's metadata. */
export const EXTENSION_METADATA_KEY = "ARROW:extension:metadata";

/** The parts of an nd array column type that vary: the value type and the attribute fields. */
export interface ArrayColumnLayout {
  /** The value type `T` of `values: List<item: T>`. */
  valueType: DataType;
  /** The fields of `attrs`, in order (empty when the column has no `attrs`). */
  attrFields: Field[];
  /**
   * True when `attrs` is nullable (a null row has no attributes). The spec
   * makes it not nullable; a table that gains `attrs` after its creation
   * needs it nullable, as older rows read it as null.
   */
  attrsNullable: boolean;
}

/** True for the value types of FORMAT.md section 3. */
export function isSupportedValueType(type: DataType): boolean {
  switch (type.typeId) {
    case Type.Bool:
    case Type.Int:
    case Type.Float:
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.Timestamp:
    case Type.Date:
    case Type.Time:
    case Type.Duration:
      return true;
    default:
      return false;
  }
}

/** True for attribute types (FORMAT.md section 3.1): a supported scalar type but Binary, or a List of one. */
export function isSupportedAttrType(type: DataType): boolean {
  if (type.typeId === Type.List) {
    const item = (type as List).children[0]?.type;
    return item !== undefined && isSupportedScalarAttrType(item);
  }
  return isSupportedScalarAttrType(type);
}

function isSupportedScalarAttrType(type: DataType): boolean {
  return type.typeId !== Type.Binary && isSupportedValueType(type);
}

/**
 * The `Struct<values, dim_names, dim_sizes[, attrs]>` type of an nd array
 * column; `attrs` is not nullable (the spec) unless `attrsNullable`.
 */
export function arrayColumnType(valueType: DataType, attrFields: readonly Field[] = [], attrsNullable = false): Struct {
  const children: Field[] = [
    new Field("values", new List(new Field("item", valueType, true)), false),
    new Field("dim_names", new List(new Field("item", new Utf8(), false)), false),
    new Field("dim_sizes", new List(new Field("item", new Uint32(), false)), false),
  ];
  if (attrFields.length > 0) children.push(new Field("attrs", new Struct([...attrFields]), attrsNullable));
  return new Struct(children);
}

/**
 * A nullable nd array column field named `name`, with the extension metadata
 * and the caller's own `metadata` (kept as is).
 */
export function arrayColumnField(
  name: string,
  valueType: DataType,
  attrFields: readonly Field[] = [],
  metadata: ReadonlyMap<string, string> = new Map(),
): Field {
  const meta = new Map(metadata);
  meta.set(EXTENSION_NAME_KEY, ND_ARRAY_EXTENSION);
  meta.set(EXTENSION_METADATA_KEY, "{}");
  return new Field(name, arrayColumnType(valueType, attrFields), true, meta);
}

/** The `__global_attrs__` field with the given attribute fields (each nullable). */
export function globalAttrsField(attrFields: readonly Field[], nullable = false): Field {
  const meta = new Map([[EXTENSION_NAME_KEY, GLOBAL_ATTRS_EXTENSION]]);
  return new Field(GLOBAL_ATTRS_COLUMN, new Struct([...attrFields]), nullable, meta);
}

/** True when the field carries the `nd_arrow.array` extension name. */
export function isArrayColumn(field: Field): boolean {
  return field.metadata.get(EXTENSION_NAME_KEY) === ND_ARRAY_EXTENSION;
}

/** True when the field is the global attributes column (by name or extension name). */
export function isGlobalAttrsColumn(field: Field): boolean {
  return field.name === GLOBAL_ATTRS_COLUMN || field.metadata.get(EXTENSION_NAME_KEY) === GLOBAL_ATTRS_EXTENSION;
}

/**
 * Checks that `field` has the nd array column layout and returns its value
 * type and attribute fields. Throws `InvalidLayout` or `UnsupportedType`
 * naming the column.
 */
export function arrayColumnLayout(field: Field): ArrayColumnLayout {
  const column = field.name;
  const fail = (why: string): never => {
    throw new NdArrowError("InvalidLayout", `not an nd_arrow.array column: ${why}`, { column });
  };
  if (field.type.typeId !== Type.Struct) fail(`type is ${field.type}, expected a Struct`);
  const children = (field.type as Struct).children;
  const byName = new Map(children.map((c) => [c.name, c]));
  const allowed = new Set(["values", "dim_names", "dim_sizes", "attrs"]);
  for (const child of children) if (!allowed.has(child.name)) fail(`unexpected child "${child.name}"`);
  const listItem = (name: string): Field => {
    const child = byName.get(name) ?? fail(`missing child "${name}"`);
    if (child.nullable) fail(`child "${name}" must not be nullable`);
    if (child.type.typeId !== Type.List) fail(`child "${name}" is ${child.type}, expected a List`);
    return (child.type as List).children[0]!;
  };
  const values = listItem("values");
  const dimNames = listItem("dim_names");
  const dimSizes = listItem("dim_sizes");
  if (dimNames.type.typeId !== Type.Utf8 || dimNames.nullable) fail("dim_names must be List<Utf8 not null>");
  if (!DataType.isInt(dimSizes.type) || dimSizes.type.bitWidth !== 32 || dimSizes.type.isSigned || dimSizes.nullable) {
    fail("dim_sizes must be List<UInt32 not null>");
  }
  if (!isSupportedValueType(values.type)) {
    throw new NdArrowError("UnsupportedType", `unsupported value type ${values.type}`, { column });
  }
  const attrs = byName.get("attrs");
  let attrFields: Field[] = [];
  // A nullable `attrs` is accepted: a null row reads as "no attributes".
  if (attrs !== undefined) {
    if (attrs.type.typeId !== Type.Struct) fail(`child "attrs" is ${attrs.type}, expected a Struct`);
    attrFields = (attrs.type as Struct).children;
    for (const a of attrFields) {
      if (!isSupportedAttrType(a.type)) {
        throw new NdArrowError("UnsupportedType", `attribute "${a.name}" has unsupported type ${a.type}`, { column });
      }
    }
  }
  return { valueType: values.type, attrFields, attrsNullable: attrs?.nullable ?? false };
}
