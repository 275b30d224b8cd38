/** JS values as the fixtures' JSON spells them: NaN/Infinity as strings, bigints as numbers, bytes as lists. */
export function spelled(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(spelled);
  return value;
}
