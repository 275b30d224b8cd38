/**
 * Names of the format: reserved names, array name checks, and quoting for
 * Lance SQL filters and for the field paths of the Lance SDK's `select`.
 */
import { FormatError } from "./errors.js";

/**
 * True for names the format reserves: each name that starts with `__`
 * (`__global_attrs__`, `__stats__:<variable>` and any later addition).
 */
export function isReservedName(name: string): boolean {
  return name.startsWith("__");
}

/**
 * Checks that `name` can be an array (variable) name of a table. Throws
 * `ReservedName` for a name that starts with `__`, and `InvalidInput` for an
 * empty name, one with a `.` (Lance does not allow `.` in a top-level name)
 * or one with a backtick (Lance stores it, but no quoting form reads the
 * column back, so every scan of the table would fail).
 */
export function checkArrayName(name: string): void {
  if (name === "") throw new FormatError("InvalidInput", "an array name must not be empty");
  if (isReservedName(name)) {
    throw new FormatError(
      "ReservedName",
      `array name "${name}" is reserved: names that start with "__" belong to the format`,
      {
        column: name,
      },
    );
  }
  if (name.includes(".")) {
    throw new FormatError(
      "InvalidInput",
      `array name "${name}" contains ".", which Lance does not allow in a column name`,
      {
        column: name,
      },
    );
  }
  if (name.includes("`")) {
    throw new FormatError(
      "InvalidInput",
      `array name "${name}" contains a backtick, which Lance cannot read back in a column name`,
      {
        column: name,
      },
    );
  }
}

/**
 * Quotes one name for Lance SQL (its dialect takes backticks; a backtick
 * inside is doubled). Always quotes, so keywords, case and any character
 * are safe.
 *
 * @example quoteIdentifier("__stats__:sst") // "`__stats__:sst`"
 */
export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

/**
 * Quotes a nested field path for Lance SQL, one quoted name per level.
 *
 * @example quoteFieldPath(["__global_attrs__", "id"]) // "`__global_attrs__`.`id`"
 */
export function quoteFieldPath(path: readonly string[]): string {
  if (path.length === 0) throw new FormatError("InvalidInput", "a field path needs at least one name");
  return path.map(quoteIdentifier).join(".");
}

/**
 * A Lance SQL string literal: single quotes, a quote inside is doubled.
 * Backslashes are plain characters in Lance's SQL dialect.
 *
 * @example sqlStringLiteral("it's") // "'it''s'"
 */
export function sqlStringLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * A column name as the Lance SDK's `select` (projection) takes it. Lance
 * parses projection names as field paths where only `.` and a backtick are
 * special, so a name with one of them is quoted with backticks (a backtick
 * inside doubled); any other name, with spaces or colons too, passes as is.
 * (Read from lance-core's `parse_field_path`; the `lance-nd` package tests it
 * against the Lance Node SDK.)
 *
 * @example selectName("__stats__:sst") // "__stats__:sst"
 */
export function selectName(name: string): string {
  return name.includes(".") || name.includes("`") ? quoteIdentifier(name) : name;
}
