/**
 * Column defaults in the table schema metadata (FORMAT.md section 3), with
 * generations so that a table can change them although the Lance Node SDK
 * can only add schema metadata keys, never change or remove one.
 *
 * - Generation 0 is the seed's form: `lance_nd.column_defaults.<lance-encoding key>`.
 * - Generation g >= 1 holds the complete defaults under
 *   `lance_nd.column_defaults@<g>.<lance-encoding key>`, plus the marker key
 *   `lance_nd.column_defaults@<g>` whose value is the number of keys of the
 *   generation (so a generation without any key, "no defaults", exists too).
 * - The highest generation wins.
 */
import { parseColumnOptions, type ColumnOptions } from "./column-options.js";
import { encodingEntries, optionsFromEncoding } from "./encoding-keys.js";
import { FormatError } from "./errors.js";
import { COLUMN_DEFAULTS_PREFIX } from "./metadata-keys.js";

const MARKER = new RegExp(`^${COLUMN_DEFAULTS_PREFIX.replaceAll(".", "\\.")}@(\\d+)$`);

/**
 * The current column defaults of a table from its schema metadata: the
 * highest generation, or the seed's keys when there is no generation.
 * Throws `InvalidTable` for bad values or a generation with missing keys.
 *
 * @example readColumnDefaults(new Map([["lance_nd.column_defaults.lance-encoding:compression", "zstd"]])) // { compression: "zstd" }
 */
export function readColumnDefaults(metadata: ReadonlyMap<string, string>): ColumnOptions {
  const generation = latestGeneration(metadata);
  const prefix = generationPrefix(generation);
  if (generation > 0) {
    const expected = metadata.get(markerKey(generation));
    const found = [...metadata.keys()].filter((key) => key.startsWith(prefix)).length;
    if (expected !== String(found)) {
      throw new FormatError(
        "InvalidTable",
        `column defaults generation ${generation}: the marker ${markerKey(generation)} says ${expected} keys, the metadata has ${found}`,
      );
    }
  }
  return optionsFromEncoding((key) => metadata.get(prefix + key), "column defaults");
}

/**
 * The table schema metadata keys to ADD so that the column defaults become
 * `options`; it never changes a key of `existing`. A table without defaults
 * gets the seed's keys; a table with defaults gets a new generation. Empty
 * when the defaults are already `options`. Throws `InvalidInput` for bad
 * options.
 *
 * @example
 * columnDefaultsMetadata({ compression: "zstd" });
 * // Map { "lance_nd.column_defaults.lance-encoding:compression" => "zstd" }
 * columnDefaultsMetadata({ compression: "lz4" }, thatMap);
 * // Map { "lance_nd.column_defaults@1.lance-encoding:compression" => "lz4", "lance_nd.column_defaults@1" => "1" }
 */
export function columnDefaultsMetadata(
  options: ColumnOptions,
  existing: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const entries = encodingEntries(parseColumnOptions(options, "columnDefaults"));
  const current = encodingEntries(readColumnDefaults(existing));
  const added = new Map<string, string>();
  if (sameEntries(entries, current)) return added;
  const hasDefaults = [...existing.keys()].some((key) => key.startsWith(COLUMN_DEFAULTS_PREFIX));
  const generation = hasDefaults ? latestGeneration(existing) + 1 : 0;
  for (const [key, value] of entries) added.set(generationPrefix(generation) + key, value);
  if (generation > 0) added.set(markerKey(generation), String(entries.size));
  return added;
}

function latestGeneration(metadata: ReadonlyMap<string, string>): number {
  let latest = 0;
  for (const key of metadata.keys()) {
    const match = MARKER.exec(key);
    if (match !== null) latest = Math.max(latest, Number(match[1]));
  }
  return latest;
}

function generationPrefix(generation: number): string {
  return generation === 0 ? `${COLUMN_DEFAULTS_PREFIX}.` : `${markerKey(generation)}.`;
}

function markerKey(generation: number): string {
  return `${COLUMN_DEFAULTS_PREFIX}@${generation}`;
}

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);
}
