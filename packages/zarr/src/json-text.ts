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
