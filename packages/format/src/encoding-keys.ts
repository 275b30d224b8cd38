/**
 * Column options as Lance's `lance-encoding:*` metadata keys and back
 * (FORMAT.md section 3).
 */
import { parseColumnOptions, type ColumnOptions } from "./column-options.js";
import { FormatError } from "./errors.js";
import { ENCODING_PREFIX } from "./metadata-keys.js";

/** The key Lance reads from the top-level field of a column. */
export const STRUCTURAL_ENCODING_KEY = `${ENCODING_PREFIX}structural-encoding`;
const COMPRESSION_KEY = `${ENCODING_PREFIX}compression`;
const COMPRESSION_LEVEL_KEY = `${ENCODING_PREFIX}compression-level`;
const BSS_KEY = `${ENCODING_PREFIX}bss`;
const RLE_THRESHOLD_KEY = `${ENCODING_PREFIX}rle-threshold`;

/** The `lance-encoding:*` keys and values of `options` (top-level and leaf keys together). */
export function encodingEntries(options: ColumnOptions): Map<string, string> {
  const entries = new Map<string, string>();
  if (options.structuralEncoding !== undefined) entries.set(STRUCTURAL_ENCODING_KEY, options.structuralEncoding);
  const compression = options.compression;
  if (typeof compression === "string") entries.set(COMPRESSION_KEY, compression);
  else if (compression !== undefined) {
    entries.set(COMPRESSION_KEY, compression.codec);
    if (compression.level !== undefined) entries.set(COMPRESSION_LEVEL_KEY, String(compression.level));
  }
  if (options.bss !== undefined) entries.set(BSS_KEY, options.bss);
  if (options.rleThreshold !== undefined) entries.set(RLE_THRESHOLD_KEY, String(options.rleThreshold));
  return entries;
}

/**
 * Reads column options from `lance-encoding:*` keys. `where` names the place
 * in the error: a table whose keys hold bad values throws `InvalidTable`.
 */
export function optionsFromEncoding(get: (key: string) => string | undefined, where: string): ColumnOptions {
  const codec = get(COMPRESSION_KEY);
  const level = get(COMPRESSION_LEVEL_KEY);
  const rle = get(RLE_THRESHOLD_KEY);
  const input = {
    structuralEncoding: get(STRUCTURAL_ENCODING_KEY),
    compression: level === undefined ? codec : { codec, level: Number(level) },
    bss: get(BSS_KEY),
    rleThreshold: rle === undefined ? undefined : Number(rle),
  };
  try {
    return parseColumnOptions(input, where);
  } catch (err) {
    throw new FormatError("InvalidTable", `bad lance-encoding metadata: ${(err as Error).message}`, { cause: err });
  }
}
