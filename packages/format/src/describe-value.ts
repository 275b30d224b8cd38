/**
 * A short, readable rendering of a value for error messages about options:
 * JSON where it can (strings quoted), `12n` for a bigint, `undefined`.
 *
 * @example describeValue({ codec: "zstd", level: 2.5 }) // '{"codec":"zstd","level":2.5}'
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
