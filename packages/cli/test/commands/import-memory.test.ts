/**
 * The memory of an import (README, "Memory of an import"): a netCDF-4 file
 * made by scripts/make-bench-file.py (netCDF4-python) imports with a peak
 * RSS under 512 MiB, in a process that runs with MALLOC_ARENA_MAX=2; the
 * executable that sets it behaves as one process would (help, errors, exit
 * codes, signals). Each process reports its own peak RSS through a preload
 * module (node's execArgv, which the executable passes on when it runs
 * itself again).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { pythonSkipReason } from "../netcdf/oracle.js";
import { CLI, cli, ensureBuilt, tempDir } from "./harness.js";

const MAKE_FILE = fileURLToPath(new URL("../../scripts/make-bench-file.py", import.meta.url));
const PEAK_GOAL_MIB = 512;
const ARENA_LIMIT = "2";
const skip = pythonSkipReason();

interface ProcessPeak {
  pid: number;
  arenas: string | null;
  peakMiB: number;
}

/**
 * A preload that prints "[start]" with the process's pid and MALLOC_ARENA_MAX
 * to stderr when the process starts, and "[peak]" with its peak RSS too at exit.
 */
function writePreload(dir: string): string {
  const preload = join(dir, "peak.mjs");
  writeFileSync(
    preload,
    `const seen = () => ({ pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null });
process.stderr.write("[start] " + JSON.stringify(seen()) + "\\n");
process.on("exit", () => process.stderr.write("[peak] " + JSON.stringify({ ...seen(), peakMiB: process.resourceUsage().maxRSS / 1024 }) + "\\n"));
`,
  );
  return preload;
}

function reported<T>(stderr: string, tag: string): T[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith(`${tag} `))
    .map((line) => JSON.parse(line.slice(tag.length + 1)) as T);
}

/** `stderr` without the preload's lines. */
const withoutPreload = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => !line.startsWith("[start] ") && !line.startsWith("[peak] "))
    .join("\n");
const peaks = (stderr: string) => reported<ProcessPeak>(stderr, "[peak]");
const starts = (stderr: string) => reported<Omit<ProcessPeak, "peakMiB">>(stderr, "[start]");

describe.skipIf(skip)("import memory", () => {
  let dir: string;
  let file: string;
  let preload: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    file = join(dir, "sst-48MiB.nc");
    const made = spawnSync("/usr/bin/python3", [MAKE_FILE, file, "48"], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`make-bench-file.py failed: ${made.stderr}`);
    preload = writePreload(dir);
  });

  it(`a 48 MiB netCDF-4 import peaks under ${PEAK_GOAL_MIB} MiB RSS, in a process run with MALLOC_ARENA_MAX=2`, () => {
    const { MALLOC_ARENA_MAX: _, ...env } = process.env;
    const run = spawnSync(
      process.execPath,
      ["--import", preload, CLI, "import", file, join(dir, "t.lance"), "--json"],
      {
        encoding: "utf8",
        env,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { rows: number }).rows).toBe(12); // 12 time steps of 4 MiB, one HDF5 chunk a row
    const [wrapper, importer] = peaks(run.stderr).sort((a, b) => a.peakMiB - b.peakMiB);
    expect(wrapper).toMatchObject({ arenas: null });
    expect(importer).toMatchObject({ arenas: ARENA_LIMIT });
    expect(importer!.peakMiB).toBeLessThan(PEAK_GOAL_MIB);
  });

  it("with MALLOC_ARENA_MAX set by the user, import runs in one process with it; help, errors and exit codes are the same", () => {
    const withEnv = (args: string[]) =>
      spawnSync(process.execPath, ["--import", preload, CLI, ...args], {
        encoding: "utf8",
        env: { ...process.env, MALLOC_ARENA_MAX: "4" },
      });
    const user = withEnv(["import", "--help"]);
    expect(peaks(user.stderr)).toEqual([expect.objectContaining({ arenas: "4" })]);
    const help = cli(["import", "--help"]);
    expect([help.code, help.stdout]).toEqual([user.status, user.stdout]);
    expect(help.code).toBe(0);

    const missing = join(dir, "missing.nc");
    const bad = cli(["import", missing, join(dir, "bad.lance")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain(missing);
    const badUser = withEnv(["import", missing, join(dir, "bad.lance")]);
    expect([badUser.status, withoutPreload(badUser.stderr)]).toEqual([bad.code, bad.stderr]);

    const usage = cli(["import"]);
    expect(usage.code).toBe(2);
    expect(withEnv(["import"]).status).toBe(2);
    expect(existsSync(join(dir, "bad.lance"))).toBe(false);
  });

  it("SIGTERM to the executable ends the import it runs, and the executable ends with SIGTERM", async () => {
    const { MALLOC_ARENA_MAX: _, ...env } = process.env;
    const wrapper = spawn(process.execPath, ["--import", preload, CLI, "import", file, join(dir, "killed.lance")], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      wrapper.on("exit", (_code, signal) => resolve(signal)),
    );
    // The importer says it has started (the preload's "[start]" line, with its
    // environment): the signal goes only then, whatever the machine's load.
    const importer = await new Promise<number>((resolve, reject) => {
      let stderr = "";
      wrapper.stderr.setEncoding("utf8").on("data", (text: string) => {
        stderr += text;
        const start = starts(stderr).find((process) => process.arenas === ARENA_LIMIT);
        if (start !== undefined) resolve(start.pid);
      });
      wrapper.on("exit", () => reject(new Error(`the import ended before its importer started: ${stderr}`)));
    });
    expect(readFileSync(`/proc/${importer}/environ`, "utf8").split("\0")).toContain(`MALLOC_ARENA_MAX=${ARENA_LIMIT}`);
    wrapper.kill("SIGTERM");
    expect(await ended).toBe("SIGTERM");
    expect(existsSync(`/proc/${importer}`)).toBe(false);
  });
});
