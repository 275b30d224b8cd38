/**
 * Runs the BUILT command line (dist/cli.js's program) as a user does.
 * `cli` and `cliBytes` run it in one node process per test file that keeps
 * the program loaded (program-server.mjs: node, lancedb and apache-arrow
 * start once, not for every command); `cliProcess` and `cliAsync` start
 * dist/cli.js itself, for what only a process of its own shows (the
 * executable's start, lancedb's Rust logger, signals, memory, running
 * beside the test). `ensureBuilt` builds the bundle once when it is missing
 * or older than any source it bundles (a lock folder keeps parallel test
 * files from building at the same time).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { KeptProcess } from "@lance-nd/test-helpers";
import { afterAll } from "vitest";

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PACKAGES = join(PACKAGE, "..");
/** The bundle the tests run. */
export const CLI = join(PACKAGE, "dist", "cli.js");
const BUNDLED = ["cli", "lance-nd", "nd-arrow", "format", "casting", "stats", "netcdf", "cf", "zarr"];

/** What one run of the command line did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command line with `args` in `cwd` and waits for it (in the test file's program process). */
export function cli(args: readonly string[], cwd = PACKAGE): CliRun {
  const run = cliBytes(args, cwd);
  return { ...run, stdout: run.stdout.toString("utf8") };
}

/** Runs the command line and returns stdout as bytes (for `scan --arrow`). */
export function cliBytes(
  args: readonly string[],
  cwd = PACKAGE,
): { code: number | null; stdout: Buffer; stderr: string } {
  const answer = programProcess().call({ args: [...args], cwd, env: { ...process.env } });
  if ("error" in answer) throw new Error(`lance-nd ${args.join(" ")}: ${answer.error}`);
  return { code: answer.code, stdout: Buffer.from(answer.stdout, "base64"), stderr: answer.stderr };
}

/** Runs `node dist/cli.js ...args` in `cwd`, a process of its own, and waits for it. */
export function cliProcess(args: readonly string[], cwd = PACKAGE): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (run.error !== undefined) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Runs `node ...nodeArgs dist/cli.js ...args` in `cwd` with the
 * environment `env` (default this process's) without blocking this
 * process: for a server the test runs in it (e.g. s3rver).
 */
export function cliAsync(
  args: readonly string[],
  cwd = PACKAGE,
  env = process.env,
  nodeArgs: readonly string[] = [],
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A request to program-server.mjs. */
interface ProgramRequest {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** What program-server.mjs answers: the exit code, stdout in base64, stderr. */
interface ProgramAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

let program: KeptProcess<ProgramRequest, ProgramAnswer> | undefined;

/** This test file's process of the program (started on the first call). */
function programProcess(): KeptProcess<ProgramRequest, ProgramAnswer> {
  // glibc's arenas as `lance-nd import` has them (its executable sets them for itself, malloc-arenas.ts):
  // without the limit, a wide import runs twice as long.
  program ??= new KeptProcess(
    process.execPath,
    [
      fileURLToPath(new URL("./program-server.mjs", import.meta.url)),
      pathToFileURL(join(PACKAGE, "dist", "run.js")).href,
    ],
    { ...process.env, MALLOC_ARENA_MAX: "2" },
  );
  return program;
}

const madeFolders: string[] = [];
afterAll(() => {
  for (const folder of madeFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh temporary folder for one test file, removed after its tests. */
export function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), "lance-nd-cli-"));
  madeFolders.push(folder);
  return folder;
}

/** Builds dist/cli.js (the package's `build` script: tsup) when it is missing or stale. */
export function ensureBuilt(): void {
  if (fresh()) return;
  // In the repository, not the temporary folder: each test file has its own (test/setup).
  const lock = join(PACKAGES, "..", ".tmp", "cli-build.lock");
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch {
      // Another test file is building: wait for it, however long the machine takes, unless it died.
      if (!holderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (fresh()) return;
    const build = spawnSync(join(PACKAGE, "node_modules", ".bin", "tsup"), [], { cwd: PACKAGE, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`build of dist/cli.js failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** False when the process that took the build lock has ended without removing it. */
function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    return true; // taken, its pid not written yet
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function fresh(): boolean {
  let built: number;
  try {
    built = statSync(CLI).mtimeMs;
  } catch {
    return false;
  }
  return (
    BUNDLED.every((pkg) => newest(join(PACKAGES, pkg, "src")) <= built) &&
    statSync(join(PACKAGE, "package.json")).mtimeMs <= built
  );
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** The row count and version of a table, read through the command line (`info --json`). */
export function tableState(table: string, cwd?: string): { rows: number; version: number } {
  const run = cli(["info", table, "--json"], cwd);
  if (run.code !== 0) throw new Error(`info failed: ${run.stderr}`);
  const info = JSON.parse(run.stdout) as { rows: number; version: number };
  return { rows: info.rows, version: info.version };
}

/** What a command prints with `--json`, parsed; an Error with its stderr when it fails or writes to stderr. */
export function cliJson<T>(args: readonly string[]): T {
  const run = cli([...args, "--json"]);
  if (run.code !== 0 || run.stderr !== "")
    throw new Error(`lance-nd ${args.join(" ")} --json: exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

/**
 * A new table of four rows: the classic ocean fixture cut by time, then the
 * waves fixture appended (`fixture(...)` of the fixtures module gives their
 * paths). Returns its path.
 */
export function oceanAndWavesTable(ocean: string, waves: string): string {
  const table = join(tempDir(), "ocean.lance");
  for (const args of [
    ["import", ocean, table, "--chunk", "time=1"],
    ["import", waves, table, "--mode", "append"],
  ]) {
    const run = cli(args);
    if (run.code !== 0) throw new Error(`lance-nd ${args.join(" ")}: ${run.stderr}`);
  }
  return table;
}

/** `--storage-option key=value` for each of `options` (e.g. an object store server's `storageOptions`). */
export function storageFlags(options: Record<string, string>): string[] {
  return Object.entries(options).flatMap(([key, value]) => ["--storage-option", `${key}=${value}`]);
}
