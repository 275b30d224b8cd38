/**
 * Column encoding options on the command line: `--compression zstd:3` and
 * `defaults --set compression=zstd,bss=on`, as lance-nd `ColumnOptions`.
 */
import { InvalidArgumentError } from "commander";
import type { ColumnOptions } from "@lance-nd/format";

const CODECS = new Set(["none", "lz4", "zstd"]);

/**
 * A compression from `none`, `lz4`, `zstd` or `zstd:<level>`. Throws
 * commander's `InvalidArgumentError` otherwise.
 *
 * @example parseCompression("zstd:3") // { codec: "zstd", level: 3 }
 */
export function parseCompression(text: string): NonNullable<ColumnOptions["compression"]> {
  const [codec = "", level, ...rest] = text.trim().toLowerCase().split(":");
  if (!CODECS.has(codec) || rest.length > 0)
    throw new InvalidArgumentError("expected none, lz4, zstd or zstd:<level>, e.g. zstd:3");
  if (level === undefined) return codec as "none" | "lz4" | "zstd";
  if (codec !== "zstd" || !/^-?\d+$/.test(level))
    throw new InvalidArgumentError("a level is an integer and only goes with zstd, e.g. zstd:3");
  return { codec: "zstd", level: Number(level) };
}

/** The settings `defaults --set` takes, with their values. */
export const DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  compression: "none | lz4 | zstd | zstd:<level>",
  "compression-level": "an integer (zstd)",
  bss: "off | on | auto",
  "structural-encoding": "miniblock | fullzip",
  "rle-threshold": "a number from 0 to 1",
};

/**
 * Column options from `setting=value` pairs (see {@link DEFAULT_SETTINGS}),
 * applied over `base`. The values are checked again by lance-nd; this only
 * turns the text into options. Throws `InvalidArgumentError` for an unknown
 * setting or a value of the wrong shape.
 *
 * @example columnOptionsFrom(new Map([["compression", "zstd"], ["compression-level", "3"]]))
 * // { compression: { codec: "zstd", level: 3 } }
 */
export function columnOptionsFrom(settings: ReadonlyMap<string, string>, base: ColumnOptions = {}): ColumnOptions {
  const out: ColumnOptions = { ...base };
  let level: number | undefined;
  for (const [key, value] of settings) {
    switch (key) {
      case "compression":
        out.compression = parseCompression(value);
        break;
      case "compression-level":
        if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`compression-level=${value}: expected an integer`);
        level = Number(value);
        break;
      case "bss":
        out.bss = oneOf(key, value, ["off", "on", "auto"] as const);
        break;
      case "structural-encoding":
        out.structuralEncoding = oneOf(key, value, ["miniblock", "fullzip"] as const);
        break;
      case "rle-threshold": {
        const n = Number(value);
        if (value.trim() === "" || !(n >= 0 && n <= 1))
          throw new InvalidArgumentError(`rle-threshold=${value}: expected a number from 0 to 1`);
        out.rleThreshold = n;
        break;
      }
      default:
        throw new InvalidArgumentError(`unknown setting "${key}" (known: ${Object.keys(DEFAULT_SETTINGS).join(", ")})`);
    }
  }
  if (level !== undefined) {
    const codec = typeof out.compression === "object" ? out.compression.codec : (out.compression ?? "zstd");
    if (codec !== "zstd")
      throw new InvalidArgumentError(`compression-level goes with zstd, the compression is ${codec}`);
    out.compression = { codec: "zstd", level };
  }
  return out;
}

function oneOf<T extends string>(key: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new InvalidArgumentError(`${key}=${value}: expected ${allowed.join(", ")}`);
  return value as T;
}
