/** `name=value` lists on the command line: `--chunk time=4,lat=90`, `--isel time=0`, `--set bss=on`. */
import { InvalidArgumentError } from "commander";

/**
 * `name=value` pairs from comma-separated text, added to `previous` (so an
 * option can repeat: `--isel time=0 --isel depth=2`). Throws commander's
 * `InvalidArgumentError` for a pair without `=`, an empty name or a name
 * given twice.
 *
 * @example parseAssignments("time=4,lat=90") // Map { "time" => "4", "lat" => "90" }
 */
export function parseAssignments(text: string, previous: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const out = new Map(previous);
  for (const part of text.split(",")) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq).trim();
    if (eq < 0 || name === "") throw new InvalidArgumentError(`expected name=value, got "${part}"`);
    if (out.has(name)) throw new InvalidArgumentError(`"${name}" is given twice`);
    out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

/**
 * `name=integer` pairs with integers of at least `min` (1 for chunk sizes,
 * 0 for indices), added to `previous`.
 *
 * @example parseIntAssignments("time=4,lat=90", 1) // Map { "time" => 4, "lat" => 90 }
 */
export function parseIntAssignments(
  text: string,
  min: number,
  previous: ReadonlyMap<string, number> = new Map(),
): Map<string, number> {
  const out = new Map(previous);
  for (const [name, value] of parseAssignments(text)) {
    if (!/^\d+$/.test(value) || Number(value) < min) {
      throw new InvalidArgumentError(`${name}=${value}: expected an integer >= ${min}`);
    }
    if (out.has(name)) throw new InvalidArgumentError(`"${name}" is given twice`);
    out.set(name, Number(value));
  }
  return out;
}
