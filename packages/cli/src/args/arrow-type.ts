/** Value type names on the command line (`float64`, `int32`, ...) as Arrow types. */
import { InvalidArgumentError } from "commander";
import {
  Bool,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeUtf8,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
} from "apache-arrow";
import type { DataType } from "apache-arrow";

const TYPES: Record<string, () => DataType> = {
  bool: () => new Bool(),
  int8: () => new Int8(),
  int16: () => new Int16(),
  int32: () => new Int32(),
  int64: () => new Int64(),
  uint8: () => new Uint8(),
  uint16: () => new Uint16(),
  uint32: () => new Uint32(),
  uint64: () => new Uint64(),
  float16: () => new Float16(),
  float32: () => new Float32(),
  float64: () => new Float64(),
  utf8: () => new Utf8(),
  large_utf8: () => new LargeUtf8(),
};

/** The type names {@link parseArrowType} knows, for help texts. */
export const TYPE_NAMES: readonly string[] = Object.keys(TYPES);

/**
 * The Arrow type of a name (case-insensitive; numpy's `double`, `float`,
 * `string` are aliases). Throws commander's `InvalidArgumentError` for an
 * unknown name, listing the known ones.
 *
 * @example parseArrowType("float64") // Float64
 */
export function parseArrowType(name: string): DataType {
  const key = name.trim().toLowerCase();
  const make = TYPES[ALIASES[key] ?? key];
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
