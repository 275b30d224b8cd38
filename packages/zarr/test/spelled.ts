/** JS values as the fixtures' JSON spells them: NaN/Infinity as strings, bigints as numbers, bytes as lists. */
function spelled(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(spelled);
  return value;
}

/** The values of `array` (an NdArray's, read), each {@link spelled}. */
export function spelledValues(array: { values: unknown }): unknown[] {
  return Array.from(array.values as Iterable<unknown>, spelled);
}

/** `attrs` as a plain object, each value {@link spelled}. */
export function spelledAttrs(attrs: ReadonlyMap<string, { toJS(): unknown }>): Record<string, unknown> {
  return Object.fromEntries([...attrs].map(([k, v]) => [k, spelled(v.toJS())]));
}
