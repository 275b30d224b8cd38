/**
 * `--encoding key=value` (repeatable) on `import`: every column setting
 * `defaults --set` takes (the format's column encoding keys: compression,
 * compression-level, bss, structural-encoding, rle-threshold), for the
 * columns the import adds. `--compression` stays as its shorthand.
 */
import { Option } from "commander";
import type { ColumnOptions } from "@lance-nd/format";
import { parseAssignments } from "./assignments.js";
import { columnOptionsFrom, DEFAULT_SETTINGS } from "./column-options.js";

/** The options {@link encodingFlag} adds, as commander parses them. */
export interface EncodingOptions {
  compression?: NonNullable<ColumnOptions["compression"]>;
  encoding?: Map<string, string>;
}

/** The `--encoding <key=value,...>` option (repeatable). */
export function encodingFlag(): Option {
  return new Option(
    "--encoding <key=value,...>",
    `encoding of new columns, as defaults --set takes it (repeatable): ${Object.keys(DEFAULT_SETTINGS).join(", ")}`,
  ).argParser((text: string, prev?: Map<string, string>) => {
    const settings = parseAssignments(text, prev);
    columnOptionsFrom(settings); // a bad key or value is a usage error here, before anything runs
    return settings;
  });
}

/**
 * The column defaults of `--compression` and `--encoding` (an `--encoding
 * compression=` wins over `--compression`), or nothing when neither is given.
 * Throws commander's `InvalidArgumentError` for an unknown key or a bad value.
 *
 * @example encodingDefaults({ encoding: new Map([["compression", "lz4"], ["bss", "on"]]) }) // { columnDefaults: { compression: "lz4", bss: "on" } }
 */
export function encodingDefaults(options: EncodingOptions): { columnDefaults?: ColumnOptions } {
  if (options.compression === undefined && options.encoding === undefined) return {};
  const base: ColumnOptions = options.compression === undefined ? {} : { compression: options.compression };
  return { columnDefaults: columnOptionsFrom(options.encoding ?? new Map(), base) };
}
