/**
 * Region selections on the command line: `--isel time=3,lat=10:20` (indices,
 * `a:b` is `[a, b)` like a Python slice, negative from the end) and
 * `--sel lat=-10:10,time=2000-03` (coordinate values as xarray's `sel`:
 * `start:stop` inclusive in the coordinate's own order; ISO dates, whole or
 * partial, for time coordinates; `method=nearest` and `tolerance=`), for
 * `scan`, `plot` and `export`.
 */
import { InvalidArgumentError } from "commander";
import type { Command } from "commander";
import type { IselSpec, SelOptions, SelSpec, SelValue } from "lance-nd";
import { parseAssignments } from "./assignments.js";

/** `--sel` as parsed: the value or slice per dim, the `method` (`method=nearest`) and its `tolerance`. */
export class SelArgs extends Map<string, SelValue | [SelValue, SelValue]> {
  /** `"nearest"`: a single value picks the nearest coordinate value. */
  method: SelOptions["method"];
  /** With `method=nearest`: the largest distance allowed, in the coordinate's units. */
  tolerance: SelOptions["tolerance"];
}

/** The selection options of a command, as commander parses them. */
export interface SelectionOptions {
  isel?: Map<string, number | [number, number]>;
  sel?: SelArgs;
  /** `--layout`: the layout of the dataset to read (lance-nd README "Layouts"). */
  layout?: string;
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
 * `--sel dim=v|start:stop,...`: a coordinate value or a slice `start:stop`
 * (both included, in the coordinate's own order as xarray's
 * `slice(start, stop)`). A value is a number (an integer past 2^53 kept
 * exact as a bigint) or an ISO date, whole or partial (`2001`, `2001-03`,
 * `2001-03-01T12:00Z`; UTC when no zone is given), passed on as text: the
 * coordinate's calendar decides which dates exist. `method=nearest` makes
 * single values pick the nearest coordinate value, `tolerance=x` bounds its
 * distance. Added to `previous` so the option can repeat.
 *
 * @example parseSel("lat=10:-10,time=2000-03") // Map { "lat" => [10, -10], "time" => "2000-03" }
 */
export function parseSel(text: string, previous: SelArgs = new SelArgs()): SelArgs {
  const out = new SelArgs(previous);
  out.method = previous.method;
  out.tolerance = previous.tolerance;
  for (const [dim, value] of parseAssignments(text)) {
    if (dim === "method" && value === "nearest") {
      out.method = "nearest";
      continue;
    }
    if (dim === "tolerance" && NUMBER.test(value)) {
      out.tolerance = Number(value);
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
        `${dim}=${value}: expected a number or ISO date (e.g. ${dim}=12.5, time=2001-03), or a slice start:stop (e.g. ${dim}=-10:10)`,
      );
    }
    out.set(dim, range);
  }
  if (out.tolerance !== undefined && out.method !== "nearest")
    throw new InvalidArgumentError(`tolerance=${out.tolerance} needs method=nearest`);
  return out;
}

/**
 * Adds `--isel`, `--sel` and (for commands that read a table's datasets,
 * unless `layouts` is false) `--layout` to `command`.
 */
export function selectionOptions(command: Command, { layouts = true } = {}): Command {
  const selecting = command
    .option(
      "--isel <dim=i|a:b,...>",
      "only these indices: an index drops the dim, a:b keeps [a, b) (negative from the end); reads only the chunks it touches",
      (text, prev?: Map<string, number | [number, number]>) => parseIsel(text, prev),
    )
    .option(
      "--sel <dim=v|start:stop,...>",
      "only these coordinate values, as xarray's sel: a value drops the dim (a repeated one keeps every match), start:stop keeps start..stop in the coordinate's order (start > stop on a descending one), a partial date (time=2001-03) its whole period; method=nearest picks the nearest value (a tie: the larger), tolerance=x bounds it",
      (text, prev?: SelArgs) => parseSel(text, prev),
    );
  if (!layouts) return selecting;
  return selecting.option(
    "--layout <name>",
    "read the selection from this layout of the dataset (see rechunk; source: its own rows); default: the current layout whose rows hold the fewest bytes for it",
  );
}

/** True when the options select a region (or a layout to read it from). */
export function hasSelection(options: SelectionOptions): boolean {
  return (options.isel?.size ?? 0) > 0 || (options.sel?.size ?? 0) > 0 || options.layout !== undefined;
}

/** The `isel` and `sel` specs and `sel` options of the options, for lance-nd's dataset view. */
export function selectionSpecs(options: SelectionOptions): { isel: IselSpec; sel: SelSpec; selOptions: SelOptions } {
  const { method, tolerance } = options.sel ?? {};
  return {
    isel: Object.fromEntries(options.isel ?? []),
    sel: Object.fromEntries(options.sel ?? []),
    selOptions: { ...(method === undefined ? {} : { method }), ...(tolerance === undefined ? {} : { tolerance }) },
  };
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}(-\d{2})?([T ]\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A number (a bigint for an integer a number cannot hold exactly, so a
 * 64-bit integer coordinate compares it exactly) or the text of an ISO
 * date, or undefined.
 */
function selValue(text: string): SelValue | undefined {
  if (NUMBER.test(text)) {
    const number = Number(text);
    return /^[-+]?\d+$/.test(text) && !Number.isSafeInteger(number) ? BigInt(text) : number;
  }
  return ISO_DATE.test(text) ? text : undefined;
}

/** `start:stop` split at the one `:` where both sides are values (ISO times contain `:` too). */
function splitRange(text: string): [SelValue, SelValue] | undefined {
  for (let at = text.indexOf(":"); at >= 0; at = text.indexOf(":", at + 1)) {
    const start = selValue(text.slice(0, at));
    const stop = selValue(text.slice(at + 1));
    if (start !== undefined && stop !== undefined) return [start, stop];
  }
  return undefined;
}
