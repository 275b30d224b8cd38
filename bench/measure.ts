/** Timing and disk helpers of the bench: best of N, warm runs, medians, folder sizes. */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The fastest of `reps` runs of `run`, in ms. With `warm`, one untimed run
 * comes first (reads: caches and JIT warm). `after` runs after each timed
 * run, outside the time (e.g. to remove what a write made).
 */
export async function best(
  reps: number,
  run: () => Promise<unknown>,
  options: { warm?: boolean; after?: () => Promise<void> | void } = {},
): Promise<number> {
  if (options.warm === true) await run();
  let fastest = Infinity;
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - start);
    await options.after?.();
  }
  return fastest;
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Bytes of all files under `dir`, recursively. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}

/** Throws when a reader returned other values than were written (so a fast wrong reader cannot win). */
export function check(what: string, actual: number, expected: number): void {
  const scale = Math.max(1, Math.abs(expected));
  if (!(Math.abs(actual - expected) <= 1e-9 * scale)) throw new Error(`${what}: got ${actual}, expected ${expected}`);
}

/** The peak RSS of this process so far in bytes (Linux VmHWM; NaN where /proc is missing). */
export function peakRss(): number {
  const status = fs.existsSync("/proc/self/status") ? fs.readFileSync("/proc/self/status", "utf8") : "";
  const match = /VmHWM:\s+(\d+)/.exec(status);
  return match === null ? Number.NaN : Number(match[1]) * 1024;
}

/** Resets the kernel's peak RSS of this process to its current RSS (Linux). */
export function resetPeak(): void {
  fs.writeFileSync("/proc/self/clear_refs", "5");
}
