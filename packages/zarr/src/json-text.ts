/**
 * Parsing and writing Zarr metadata JSON as zarr-python does: Python's
 * `json` writes NaN and infinities in attributes as the bare tokens `NaN`,
 * `Infinity` and `-Infinity`, which strict JSON refuses; they are read as
 * the numbers they stand for. Python also tells a float `1.0` from an int
 * `1`, which JavaScript numbers do not: in attributes an integral float is a
 * {@link JsonFloat} on both ways, so a float attribute stays a float.
 */

const SENTINEL = "\u0000lance-nd-zarr:";
const FLOAT_SENTINEL = `${SENTINEL}float:`;
const TOKENS: Readonly<Record<string, number>> = { NaN: Number.NaN, Infinity: Infinity, "-Infinity": -Infinity };

/**
 * `text` parsed as JSON, bare NaN / Infinity / -Infinity tokens allowed;
 * throws `SyntaxError` otherwise. Integral floats (`1.0`, `1e3`) inside
 * attributes (the members `attributes` of v3 metadata and `*.zattrs` of a
 * consolidated `.zmetadata`, or the whole document when `attributes`, as for
 * `.zattrs`) are {@link JsonFloat}s; elsewhere every number is a number.
 */
export function parseZarrJson(text: string, attributes = false): unknown {
  const rewritten = quoteBareTokens(text);
  if (rewritten === text) return JSON.parse(text);
  const depth = jsonDepth(rewritten);
  if (depth > MAX_SENTINEL_DEPTH)
    throw new SyntaxError(
      `its values nest ${depth} levels deep with NaN, Infinity or an integral float among them (at most ${MAX_SENTINEL_DEPTH} are read)`,
    );
  return JSON.parse(rewritten, (key, value: unknown) => {
    if (typeof value === "string" && value.startsWith(SENTINEL) && !value.startsWith(FLOAT_SENTINEL))
      return TOKENS[value.slice(SENTINEL.length)];
    if (key === "attributes" || key.endsWith(".zattrs") || (key === "" && attributes)) return floatsIn(value, true);
    return key === "" ? floatsIn(value, false) : value;
  });
}

/** How deep a document whose bare tokens or integral floats were quoted is walked to read them back. */
const MAX_SENTINEL_DEPTH = 1000;

/** The deepest nesting of objects and arrays in JSON text (strings skipped). */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return deepest;
}

/** `value` with every integral-float sentinel inside it a {@link JsonFloat} (`keep`) or a plain number. */
function floatsIn(value: unknown, keep: boolean): unknown {
  if (typeof value === "string" && value.startsWith(FLOAT_SENTINEL)) {
    const number = Number(value.slice(FLOAT_SENTINEL.length));
    return keep ? new JsonFloat(number) : number;
  }
  if (Array.isArray(value)) return value.map((item) => floatsIn(item, keep));
  if (typeof value === "object" && value !== null && !(value instanceof JsonFloat))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, floatsIn(v, keep)]));
  return value;
}

/** The bare tokens and integral float literals outside strings turned into sentinel strings. */
function quoteBareTokens(text: string): string {
  let out = "";
  let inString = false;
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const token = ["-Infinity", "Infinity", "NaN"].find((t) => text.startsWith(t, i));
    if (token !== undefined) {
      out += JSON.stringify(SENTINEL + token);
      i += token.length - 1;
      continue;
    }
    number.lastIndex = i;
    const literal = c === "-" || (c >= "0" && c <= "9") ? number.exec(text)?.[0] : undefined;
    if (literal !== undefined) {
      const isIntegralFloat = /[.eE]/.test(literal) && Number.isInteger(Number(literal));
      out += isIntegralFloat ? JSON.stringify(FLOAT_SENTINEL + literal) : literal;
      i += literal.length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * A float that JSON text must show as a float: an integral value gets its
 * `.0` (`1.0`, not `1`), as Python's `json` writes a float, so that
 * zarr-python and xarray read a float attribute back as a float.
 */
export class JsonFloat {
  /** @param value a finite number. */
  constructor(readonly value: number) {}

  /** The number, or for an integral one a sentinel string that {@link stringifyZarrJson} writes as `<n>.0`. */
  toJSON(): number | string {
    const text = String(this.value);
    return /[.e]/.test(text) ? this.value : FLOAT_SENTINEL + text;
  }
}

/** `doc` as JSON text indented by `indent`, every {@link JsonFloat} written as a float. */
export function stringifyZarrJson(doc: unknown, indent: number): string {
  const marker = JSON.stringify(FLOAT_SENTINEL).slice(1, -1).replace(/[\\$]/g, "\\$&");
  return JSON.stringify(doc, null, indent).replace(new RegExp(`"${marker}(-?\\d+)"`, "g"), "$1.0");
}
