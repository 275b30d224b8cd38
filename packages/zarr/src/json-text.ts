/**
 * Parsing Zarr metadata JSON as zarr-python writes it: Python's `json`
 * writes NaN and infinities in attributes as the bare tokens `NaN`,
 * `Infinity` and `-Infinity`, which strict JSON refuses. They are read as
 * the numbers they stand for.
 */

const SENTINEL = "\u0000lance-nd-zarr:";
const TOKENS: Readonly<Record<string, number>> = { NaN: Number.NaN, Infinity: Infinity, "-Infinity": -Infinity };

/** `text` parsed as JSON, bare NaN / Infinity / -Infinity tokens allowed; throws `SyntaxError` otherwise. */
export function parseZarrJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (strictError) {
    const rewritten = quoteBareTokens(text);
    if (rewritten === text) throw strictError;
    return JSON.parse(rewritten, (_key, value: unknown) =>
      typeof value === "string" && value.startsWith(SENTINEL) ? TOKENS[value.slice(SENTINEL.length)] : value,
    );
  }
}

/** The bare tokens outside strings turned into sentinel strings. */
function quoteBareTokens(text: string): string {
  let out = "";
  let inString = false;
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
    out += c;
  }
  return out;
}

const FLOAT_SENTINEL = `${SENTINEL}float:`;

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
