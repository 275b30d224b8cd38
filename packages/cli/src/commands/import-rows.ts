/**
 * The rows of an import: `--row-size` (the row budget each source's
 * `rowPlan` cuts within: nd-arrow README "The reader contract"), the notice
 * of a source cut because of its size, and how the writer sizes its adds.
 */
import type { NdRowPlan } from "@lance-nd/nd-arrow";
import type { WriteOptions } from "lance-nd";
import { InvalidArgumentError } from "commander";
import { ROW_BYTES } from "@lance-nd/nd-arrow/internal";

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

/**
 * The notice of a source that its reader cut because of its size
 * (`NdRowPlan.cut`): its bytes over the row budget, how many rows and how
 * (README, "Rows of an import"); undefined when it was not cut.
 */
export function rowNotice(path: string, plan: NdRowPlan, budget: number): string | undefined {
  if (plan.cut === undefined) return undefined;
  const rows = plan.count;
  return `${path}: ${formatBytes(plan.cut.bytes)} is more than a row holds (${formatBytes(budget)}, --row-size); importing it as ${rows} ${rows === 1 ? "row" : "rows"} ${plan.cut.how} (set --chunk to choose)`;
}

/** `bytes` in KiB under 1 MiB, else in MiB. */
function formatBytes(bytes: number): string {
  return bytes < 2 ** 20 ? `${(bytes / 2 ** 10).toFixed(0)} KiB` : `${(bytes / 2 ** 20).toFixed(0)} MiB`;
}
