/**
 * The rows of one file for an import: whole, cut by `--chunk`, or, for a file
 * larger than a row (nd-arrow's `storage-rows.ts`), cut on its storage chunks so a
 * row stays within that size. Only one row is read at a time.
 */
import { CHUNK_OFFSET } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { NetcdfFile } from "@lance-nd/netcdf";
import type { WriteOptions } from "lance-nd";
import { InvalidArgumentError } from "commander";
import { CliError } from "../errors.js";
import { planRowGroups, ROW_BYTES, type RowGroup } from "@lance-nd/nd-arrow/internal";

/** The default of `--row-size`: nd-arrow's 1 MiB row budget (README, "Rows of an import"). */
export const DEFAULT_ROW_BYTES = ROW_BYTES;

const BYTE_UNITS: Readonly<Record<string, number>> = { "": 1, b: 1, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30 };

/**
 * The bytes of a `--row-size` value: a whole number of bytes, or a number
 * with a `KiB`, `MiB` or `GiB` suffix (`64KiB`, `1.5MiB`); at least 1 KiB.
 */
export function parseRowSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match === null ? undefined : BYTE_UNITS[match[2]!.toLowerCase()];
  const bytes = unit === undefined ? Number.NaN : Math.round(Number(match![1]) * unit);
  if (!(bytes >= 2 ** 10))
    throw new InvalidArgumentError(`expected a size of at least 1KiB, e.g. 64KiB or 2MiB, not "${text}"`);
  return bytes;
}

/** The bytes an import buffers per Lance add, before the writer's own sizing (README, "Memory of an import"). */
const ADD_BYTES = 8 * 2 ** 20;

/**
 * How an import's writer sizes its Lance adds (README, "Memory of an
 * import"): two adds in flight of about 16 MiB of rows, within a memory
 * budget of 24 MiB, so the rows in memory and what lancedb holds while it
 * writes them do not grow with the file.
 */
export const IMPORT_WRITE_SIZING = {
  targetFragmentBytes: 2 * ADD_BYTES,
  writeParallelism: 2,
  memoryBudgetBytes: 3 * ADD_BYTES,
} as const satisfies WriteOptions;

/** How a file is cut into rows. */
export interface RowPlan {
  /**
   * The groups of variables a row holds, each with its chunk size per dim
   * (one group of every variable without sizes: the file is one row).
   */
  readonly groups: readonly RowGroup[];
  /** The number of rows. */
  readonly rows: number;
  /** Set when the file was cut because of its size: says how. */
  readonly notice: string | undefined;
}

/** The uncompressed bytes of a file's variables. */
export function fileBytes(file: NetcdfFile): number {
  return file.variables.reduce((n, v) => n + v.bytes, 0);
}

/**
 * The row plan of `file`: `chunk` as given (dims the file lacks are
 * `InvalidArgument`), else one row, else (over `budget` bytes) nd-arrow's
 * `planRowGroups`: rows on the storage chunks of its largest variable, or,
 * for variables on dims of their own, groups of them within `budget`, with
 * a notice.
 */
export function planRows(
  file: NetcdfFile,
  chunk: ReadonlyMap<string, number> | undefined,
  budget = ROW_BYTES,
): RowPlan {
  const all = file.variables.map((v) => v.name);
  const grid = gridOf(file, all);
  if (chunk !== undefined) {
    const unknown = [...chunk.keys()].filter((d) => !grid.has(d));
    if (unknown.length > 0) {
      throw new CliError(
        "InvalidArgument",
        `${file.path}: --chunk names ${unknown.join(", ")}, which the file does not have (its dims: ${[...grid.keys()].join(", ")})`,
        { path: file.path },
      );
    }
    const sizes = Object.fromEntries(chunk);
    return { groups: [{ variables: all, sizes }], rows: countRows(grid, sizes), notice: undefined };
  }
  const total = fileBytes(file);
  const whole = { groups: [{ variables: all, sizes: {} }], rows: 1, notice: undefined };
  if (total <= budget || grid.size === 0) return whole;
  const stored = file.variables.map((v) => ({
    name: v.name,
    dims: v.dims,
    itemBytes:
      v.bytes /
      Math.max(
        1,
        v.dims.reduce((n, d) => n * d.size, 1),
      ),
    block: v.chunking,
  }));
  const groups = planRowGroups(stored, budget);
  const rows = groups.reduce((n, g) => n + countRows(gridOf(file, g.variables), g.sizes), 0);
  if (groups.length === 1 && Object.keys(groups[0]!.sizes).length === 0) return whole;
  const how =
    groups.length === 1
      ? `of ${shapeOf(groups[0]!.sizes)} on its storage chunks`
      : `of ${groups.length} groups of variables that share no dim, each within the budget or cut on its storage chunks`;
  const notice = `${file.path}: ${formatBytes(total)} is more than a row holds (${formatBytes(budget)}, --row-size); importing it as ${rows} ${rows === 1 ? "row" : "rows"} ${how} (set --chunk to choose)`;
  return { groups, rows, notice };
}

/** `sizes` as `dim=size,...`. */
function shapeOf(sizes: Readonly<Record<string, number>>): string {
  return Object.entries(sizes)
    .map(([dim, size]) => `${dim}=${size}`)
    .join(",");
}

/** The dims of the variables `names` of `file` with their sizes, in the order the variables meet them. */
function gridOf(file: NetcdfFile, names: readonly string[]): Map<string, number> {
  const wanted = new Set(names);
  const grid = new Map<string, number>();
  for (const v of file.variables)
    if (wanted.has(v.name)) for (const d of v.dims) if (!grid.has(d.name)) grid.set(d.name, d.size);
  return grid;
}

function countRows(grid: ReadonlyMap<string, number>, sizes: Readonly<Record<string, number>>): number {
  let rows = 1;
  for (const [dim, size] of grid) if (Object.hasOwn(sizes, dim)) rows *= Math.max(1, Math.ceil(size / sizes[dim]!));
  return rows;
}

/** `bytes` in KiB under 1 MiB, else in MiB. */
function formatBytes(bytes: number): string {
  return bytes < 2 ** 20 ? `${(bytes / 2 ** 10).toFixed(0)} KiB` : `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}

/**
 * The rows of `file` under `plan`, group by group; a whole-file row has no
 * `chunk_offset`, a row of a group has one on its own grid (lance-nd README,
 * "Datasets": rows of some of the variables).
 */
export async function* fileRows(file: NetcdfFile, plan: RowPlan): AsyncGenerator<NdRecordBatch> {
  const [first] = plan.groups;
  if (plan.groups.length === 1 && Object.keys(first!.sizes).length === 0) {
    for await (const row of file.chunks({}))
      yield row.withGlobalAttrs(new Map([...row.globalAttrs].filter(([key]) => key !== CHUNK_OFFSET)));
    return;
  }
  if (plan.groups.length === 1) {
    yield* file.chunks(first!.sizes);
    return;
  }
  for (const group of plan.groups) yield* file.chunks(group.sizes, { variables: group.variables });
}
