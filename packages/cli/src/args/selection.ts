/**
 * Region selections on the command line: `--isel time=3,lat=10:20` (indices,
 * `a:b` is `[a, b)` like a Python slice, negative from the end) and
 * `--sel lat=-10:10,time=2000-03-01` (coordinate values, `lo:hi` inclusive in
 * either order; ISO dates for time coordinates; `method=nearest` as xarray's
 * `sel`), for `scan`, `plot` and `export`.
 */
import { InvalidArgumentError } from "commander";
import type { Command } from "commander";
import type { IselSpec, SelOptions, SelSpec, SelValue } from "lance-nd";
import { parseAssignments } from "./assignments.js";

/** `--sel` as parsed: the value or bounds per dim, and the `method` (`method=nearest`). */
export class SelArgs extends Map<string, SelValue | [SelValue, SelValue]> {
  /** `"nearest"`: a single value picks the nearest coordinate value. */
  method: SelOptions["method"];
}

/** The selection options of a command, as commander parses them. */
export interface SelectionOptions {
  isel?: Map<string, number | [number, number]>;
  sel?: SelArgs;
}

/**
 * `--isel dim=i|a:b,...`: an integer index (the dim is dropped) or `a:b`
 * (`[a, b)`), negative ones counting from the end as in Python, added to `previous` so the option can repeat. Throws
 * commander's `InvalidArgumentError` for anything else.
 *
 * @example parseIsel("time=3,lat=10:20") // Map { "time" => 3, "lat" => [10, 20] }
 */
export function parseIsel(
  text: string,
  previous: ReadonlyMap<string, number | [number, number]> = new Map(),
): Map<string, number | [number, number]> {
  const out = new Map(previous);
  for (const [dim, value] of parseAssignments(text)) {
    if (out.has(dim)) throw new InvalidArgumentError(`"${dim}" is given twice`);
    const range = /^(-?\d+):(-?\d+)$/.exec(value);
    if (range !== null) out.set(dim, [Number(range[1]), Number(range[2])]);
    else if (/^-?\d+$/.test(value)) out.set(dim, Number(value));
    else
      throw new InvalidArgumentError(
        `${dim}=${value}: expected an index (e.g. ${dim}=3) or a range start:stop (e.g. ${dim}=0:10)`,
      );
  }
  return out;
}

/**
 * `--sel dim=v|lo:hi,...`: a coordinate value (the dim is dropped) or
 * inclusive bounds `lo:hi` in either order. A value is a number or an ISO
 * date (`2000-03-01`, `2000-03-01T12:00Z`; UTC when no zone is given).
 * `method=nearest` makes single values pick the nearest coordinate value.
 * Added to `previous` so the option can repeat.
 *
 * @example parseSel("lat=-10:10,time=2000-03-01") // Map { "lat" => [-10, 10], "time" => Date(2000-03-01) }
 */
export function parseSel(text: string, previous: SelArgs = new SelArgs()): SelArgs {
  const out = new SelArgs(previous);
  out.method = previous.method;
  for (const [dim, value] of parseAssignments(text)) {
    if (dim === "method" && value === "nearest") {
      out.method = "nearest";
      continue;
    }
    if (out.has(dim)) throw new InvalidArgumentError(`"${dim}" is given twice`);
    const single = selValue(value);
    if (single !== undefined) {
      out.set(dim, single);
      continue;
    }
    const range = splitRange(value);
    if (range === undefined) {
      throw new InvalidArgumentError(
        `${dim}=${value}: expected a number or ISO date (e.g. ${dim}=12.5), or bounds lo:hi (e.g. ${dim}=-10:10)`,
      );
    }
    out.set(dim, range);
  }
  return out;
}

/** Adds `--isel` and `--sel` to `command`. */
export function selectionOptions(command: Command): Command {
  return command
    .option(
      "--isel <dim=i|a:b,...>",
      "only these indices: an index drops the dim, a:b keeps [a, b) (negative from the end); reads only the chunks it touches",
      (text, prev?: Map<string, number | [number, number]>) => parseIsel(text, prev),
    )
    .option(
      "--sel <dim=v|lo:hi,...>",
      "only these coordinate values (ISO dates for time): a value drops the dim, lo:hi keeps lo..hi in either order; method=nearest picks the nearest value",
      (text, prev?: SelArgs) => parseSel(text, prev),
    );
}

/** True when the options select a region. */
export function hasSelection(options: SelectionOptions): boolean {
  return (options.isel?.size ?? 0) > 0 || (options.sel?.size ?? 0) > 0;
}

/** The `isel` and `sel` specs and `sel` options of the options, for lance-nd's dataset view. */
export function selectionSpecs(options: SelectionOptions): { isel: IselSpec; sel: SelSpec; selOptions: SelOptions } {
  const method = options.sel?.method;
  return {
    isel: Object.fromEntries(options.isel ?? []),
    sel: Object.fromEntries(options.sel ?? []),
    selOptions: method === undefined ? {} : { method },
  };
}

/** The dims a single value picks (and drops). */
export function droppedDims(options: SelectionOptions): Set<string> {
  const single = (entries: Iterable<[string, unknown]>) =>
    [...entries].filter(([, v]) => !Array.isArray(v)).map(([d]) => d);
  return new Set([...single(options.isel ?? []), ...single(options.sel ?? [])]);
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}(-\d{2})?([T ]\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A number or an ISO date, or undefined. A day the Gregorian calendar lacks
 * (`2000-02-30`, which JavaScript would read as 1 March) is an
 * `InvalidArgumentError` saying how to select it.
 */
function selValue(text: string): SelValue | undefined {
  if (NUMBER.test(text)) return Number(text);
  if (!ISO_DATE.test(text)) return undefined;
  const [year, month, day = 1] = text.slice(0, 10).split("-").map(Number) as [number, number, number?];
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    throw new InvalidArgumentError(
      `${text} is not a Gregorian date; a date of another calendar (30 February of 360_day) is selected by its number in the coordinate's units (time=59 for "days since 2000-01-01")`,
    );
  }
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) || !/[T ]\d{2}/.test(text) ? text : `${text}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `lo:hi` split at the one `:` where both sides are values (ISO times contain `:` too). */
function splitRange(text: string): [SelValue, SelValue] | undefined {
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
    const lo = selValue(text.slice(0, at));
    const hi = selValue(text.slice(at + 1));
    if (lo !== undefined && hi !== undefined) return [lo, hi];
  }
  return undefined;
}
