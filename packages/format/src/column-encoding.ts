/**
 * Lance encoding metadata on the fields of a column (FORMAT.md section 3): the
 * structural encoding on the top-level field, the other keys on each leaf.
 */
import { Field, List, Struct, Type } from "apache-arrow";
import type { ColumnOptions } from "./column-options.js";
import { STRUCTURAL_ENCODING_KEY, encodingEntries, optionsFromEncoding } from "./encoding-keys.js";
import { ENCODING_PREFIX } from "./metadata-keys.js";

/**
 * The column `field` with exactly the encoding `options`: any earlier
 * `lance-encoding:*` key goes, `structuralEncoding` goes on the top-level
 * field and the other options on each leaf field (a field that is not a
 * struct or a list, e.g. `values.item`, `dim_sizes.item`, each attribute,
 * `min` and `max` of a stats column). Other metadata stays.
 *
 * @example applyColumnEncoding(sstField, { compression: { codec: "zstd", level: 3 }, structuralEncoding: "miniblock" })
 */
export function applyColumnEncoding(field: Field, options: ColumnOptions): Field {
  const entries = encodingEntries(options);
  const top = new Map([...entries].filter(([key]) => key === STRUCTURAL_ENCODING_KEY));
  const leaf = new Map([...entries].filter(([key]) => key !== STRUCTURAL_ENCODING_KEY));
  const encodeChild = (child: Field): Field =>
    mapField(child, (f, isLeaf) => withEncoding(f, isLeaf ? leaf : new Map()));
  const children = nestedChildren(field);
  // A top-level leaf (no struct or list) gets both kinds of keys.
  if (children === null) return withEncoding(field, new Map([...top, ...leaf]));
  return withEncoding(rebuild(field, children.map(encodeChild)), top);
}

/**
 * Reads the encoding options of a column back: the structural encoding from
 * the top-level field, the other options from its first leaf. Throws
 * `InvalidTable` for values Lance would not take.
 *
 * @example columnEncoding(applyColumnEncoding(field, { bss: "on" })) // { bss: "on" }
 */
export function columnEncoding(field: Field): ColumnOptions {
  const leaf = firstLeaf(field);
  return optionsFromEncoding(
    (key) => (key === STRUCTURAL_ENCODING_KEY ? field : leaf).metadata.get(key),
    `encoding of column "${field.name}"`,
  );
}

/** `field` and each field inside it without any `lance-encoding:*` key; other metadata stays. */
export function stripEncodingMetadata(field: Field): Field {
  return mapField(field, (f) => withEncoding(f, new Map()));
}

/** Applies `fn` to each field of the tree below and including `field`, children first. */
function mapField(field: Field, fn: (field: Field, isLeaf: boolean) => Field): Field {
  const children = nestedChildren(field);
  if (children === null) return fn(field, true);
  return fn(
    rebuild(
      field,
      children.map((child) => mapField(child, fn)),
    ),
    false,
  );
}

/** The children of a struct or a list field, or null for a leaf. */
function nestedChildren(field: Field): Field[] | null {
  const id = field.type.typeId;
  return id === Type.Struct || id === Type.List ? (field.type.children as Field[]) : null;
}

function rebuild(field: Field, children: Field[]): Field {
  const type = field.type.typeId === Type.Struct ? new Struct(children) : new List(children[0]!);
  return new Field(field.name, type, field.nullable, new Map(field.metadata));
}

function firstLeaf(field: Field): Field {
  const children = nestedChildren(field);
  return children === null || children.length === 0 ? field : firstLeaf(children[0]!);
}

/** `field` with its `lance-encoding:*` keys replaced by `entries`. */
function withEncoding(field: Field, entries: ReadonlyMap<string, string>): Field {
  const metadata = new Map([...field.metadata].filter(([key]) => !key.startsWith(ENCODING_PREFIX)));
  for (const [key, value] of entries) metadata.set(key, value);
  return new Field(field.name, field.type, field.nullable, metadata);
}
