/** Value type names on the command line (`float64`, `int32`, ...) as Arrow types. */
import { InvalidArgumentError } from "commander";
import { Bool, Float16, LargeUtf8, Utf8 } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { arrowType, DTYPE_NAMES, isDtype } from "@lance-nd/cf";

/** The names that are not numpy's numeric dtypes (those come from @lance-nd/cf's `arrowType`). */
const OTHER_TYPES: Record<string, () => DataType> = {
  bool: () => new Bool(),
  float16: () => new Float16(),
  utf8: () => new Utf8(),
  large_utf8: () => new LargeUtf8(),
};

/** The type names {@link parseArrowType} knows, for help texts. */
export const TYPE_NAMES: readonly string[] = [...DTYPE_NAMES, ...Object.keys(OTHER_TYPES)];

/**
 * The Arrow type of a name (case-insensitive; numpy's `double`, `float`,
 * `string` are aliases). Throws commander's `InvalidArgumentError` for an
 * unknown name, listing the known ones.
 *
 * @example parseArrowType("float64") // Float64
 */
export function parseArrowType(name: string): DataType {
  const key = name.trim().toLowerCase();
  const known = ALIASES[key] ?? key;
  if (isDtype(known)) return arrowType(known);
  const make = OTHER_TYPES[known];
  if (make === undefined) throw new InvalidArgumentError(`unknown type "${name}" (known: ${TYPE_NAMES.join(", ")})`);
  return make();
}

const ALIASES: Record<string, string> = {
  double: "float64",
  float: "float32",
  half: "float16",
  string: "utf8",
  boolean: "bool",
};
