/** Durations on the command line: `90s`, `15m`, `12h`, `7d`. */
import { InvalidArgumentError } from "commander";

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration in milliseconds from a number and a unit: `s` seconds, `m`
 * minutes, `h` hours, `d` days (`1.5h` is allowed). Throws commander's
 * `InvalidArgumentError` (a usage error) for anything else.
 *
 * @example parseDuration("7d") // 604800000
 */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(text);
  if (match === null) throw new InvalidArgumentError("expected a number and a unit s, m, h or d, e.g. 7d or 12h");
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
}
