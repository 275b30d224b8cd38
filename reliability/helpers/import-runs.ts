// The built `lance-nd import` as a user starts it (through the
// MALLOC_ARENA_MAX wrapper: the variable is left unset), as a process the
// test can signal; and checks that an id holds exactly one complete copy of
// a steps file (helpers/import-files.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { open, scan } from "lance-nd";
import { CLI } from "./cli.js";
import { stepValue } from "./import-files.js";

/** A started command: the process (the PID the caller holds) and how it ended. */
export interface CliProcess {
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const running = new Set<ChildProcess>();

/** Starts `node packages/cli/dist/cli.js ...args` without MALLOC_ARENA_MAX, so the wrapper runs the import in a child. */
export function startCli(args: readonly string[]): CliProcess {
  const { MALLOC_ARENA_MAX: _, ...env } = process.env;
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  running.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stderr });
    }),
  );
  return { process: child, exited };
}

/** Kills (SIGKILL) the commands started here that still run. */
export function killCliProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}

/** The manifests in the table's `_versions/` (0 without a table). */
export function manifestCount(uri: string): number {
  const dir = join(uri, "_versions");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".manifest")).length : 0;
}

/** The ids of the child processes of `pid` (Linux `/proc`). */
export function childPids(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
}

/** True while a process with id `pid` exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits until `test` holds (polling every 5 ms), or `exited` resolves first; true when `test` held. */
export async function waitUntil(test: () => boolean, exited: Promise<unknown>): Promise<boolean> {
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    if (test()) return true;
    await sleep(5);
  }
  return test();
}

/**
 * What the table at `uri` holds: each id and the seed of the steps file
 * whose `rows` steps it holds exactly once, every value right (a table
 * that does not exist holds nothing). Throws on a partial or doubled id.
 */
export async function tableContent(uri: string, rows: number, seeds: readonly number[]): Promise<Map<string, number>> {
  if (manifestCount(uri) === 0) return new Map();
  const steps = new Map<string, { seed: number; seen: Map<number, number> }>();
  for await (const batch of scan(await open(uri))) {
    const id = String(batch.globalAttr("id"));
    const t = Number((batch.globalAttr("chunk_offset") as ArrayLike<number | bigint>)[0]);
    const values = batch.get("v")!.values;
    const seed = steps.get(id)?.seed ?? seeds.find((s) => values.get(0) === stepValue(s, t, 0));
    if (seed === undefined) throw new Error(`id ${id}: step ${t} is no file's`);
    for (let j = 0; j < values.length; j++) {
      if (values.get(j) !== stepValue(seed, t, j))
        throw new Error(
          `id ${id}: step ${t} value ${j} is ${values.get(j)}, not file ${seed}'s ${stepValue(seed, t, j)}`,
        );
    }
    const entry = steps.get(id) ?? { seed, seen: new Map<number, number>() };
    entry.seen.set(t, (entry.seen.get(t) ?? 0) + 1);
    steps.set(id, entry);
  }
  for (const [id, { seen }] of steps) {
    const twice = [...seen].filter(([, n]) => n > 1).map(([t]) => t);
    if (twice.length > 0 || seen.size !== rows)
      throw new Error(
        `id ${id}: ${seen.size} of ${rows} steps${twice.length > 0 ? `, steps ${twice.join(", ")} more than once` : ""}`,
      );
  }
  return new Map([...steps].map(([id, { seed }]) => [id, seed]));
}

/** The lance-nd tags of imports under way (import marks and writer locks) left on the table; the records of complete imports (`lance-nd-imported-*`) stay by design. */
export function importTags(uri: string): string[] {
  const dir = join(uri, "_refs", "tags");
  return existsSync(dir)
    ? readdirSync(dir).filter((f) => f.startsWith("lance-nd-") && !f.startsWith("lance-nd-imported-"))
    : [];
}
