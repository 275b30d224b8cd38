/** A readable, stable text form of a schema, for docs, tests and a CLI. */
import { Type } from "apache-arrow";
import type { Field, Schema } from "apache-arrow";

/**
 * One line per field, indented by nesting: `name?: Type {key=value, ...}`
 * (`?` marks a nullable field; nested types print their kind only, their
 * children follow), then the schema metadata, one `key = value` line each.
 *
 * @example
 * describeSchema(schema);
 * // sst?: Struct {ARROW:extension:name=nd_arrow.array, ARROW:extension:metadata={}}
 * //   values: List
 * //     item?: Float32
 * // ...
 * // metadata lance_nd:format = 1
 */
export function describeSchema(schema: Schema): string {
  const lines: string[] = [];
  const visit = (field: Field, depth: number): void => {
    const children = nestedKind(field);
    const type = children ?? String(field.type);
    const metadata = [...field.metadata].map(([key, value]) => `${key}=${value}`).join(", ");
    lines.push(
      `${"  ".repeat(depth)}${field.name}${field.nullable ? "?" : ""}: ${type}${metadata ? ` {${metadata}}` : ""}`,
    );
    if (children !== null) for (const child of field.type.children as Field[]) visit(child, depth + 1);
  };
  for (const field of schema.fields) visit(field, 0);
  for (const [key, value] of schema.metadata) lines.push(`metadata ${key} = ${value}`);
  return lines.join("\n");
}

function nestedKind(field: Field): string | null {
  switch (field.type.typeId) {
    case Type.Struct:
      return "Struct";
    case Type.List:
      return "List";
    default:
      return null;
  }
}
