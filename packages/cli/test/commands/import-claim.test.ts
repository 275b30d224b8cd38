/**
 * `lance-nd import` under its claim (CLI README, "Interrupting an import"):
 * a second import of an id waits for the first or fails at once with
 * --no-wait, naming the holder (a second append of a new id then finds it); a second SIGINT exits at once and leaves
 * the import for `check --repair`; a SIGTERM'd create leaves no table.
 * Files of 75 steps imported with --chunk time=1 and a small --add-size:
 * several adds each.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { writeNetcdf } from "@lance-nd/netcdf";
import { claimImport } from "lance-nd/internal";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, cli, ensureBuilt, tempDir } from "./harness.js";

const dir = tempDir();
const file = join(dir, "steps.nc");
const args = (table: string, ...more: string[]) => [
  "import",
  file,
  table,
  "--chunk",
  "time=1",
  "--add-size",
  "0.1",
  ...more,
];

beforeAll(async () => {
  ensureBuilt();
  const values = Float32Array.from({ length: 75 * 4096 }, (_, i) => i % 1000);
  const v = NdArray.from(values, { dims: { time: 75, x: 4096 } });
  await writeNetcdf(file, new NdRecordBatch({ v }), { format: "classic" });
});

function manifests(table: string): number {
  const versions = join(table, "_versions");
  return existsSync(versions) ? readdirSync(versions).length : 0;
}

/** Starts an import, sends `signals` once `adds` versions landed, and returns how it ended. */
async function stopped(table: string, mode: string, signals: NodeJS.Signals[], adds: number) {
  const before = manifests(table);
  const child = spawn(process.execPath, [CLI, ...args(table, "--mode", mode)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  while (manifests(table) < before + adds) await sleep(5);
  for (const signal of signals) child.kill(signal);
  return { code: await exited, stderr };
}

describe("import under its claim", () => {
  it("--no-wait fails at once naming the import that writes the id; --wait waits, then says the same; then it runs", async () => {
    const table = join(dir, "held.lance");
    expect(cli(args(table)).code).toBe(0);
    const claim = await claimImport(table, {
      mode: "replace",
      branch: null,
      ids: ["steps.nc"],
      wait: { timeoutMs: 0 },
    });
    const holder = `table "${table}": id "steps.nc" is being written by another import: held by import ${claim.mark.uuid} (replace, process ${process.pid} on `;
    for (const wait of [["--no-wait"], ["--wait", "0.5"]]) {
      const run = cli(args(table, "--mode", "replace", ...wait));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`lance-nd: cannot import into ${table} (${holder}`);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
    await claim.release();
    expect(cli(args(table, "--mode", "replace", "--no-wait")).code).toBe(0);
  });

  it("two appends of one new id at once: one imports it, the other waits and is refused naming the id", async () => {
    const table = join(dir, "appends.lance");
    expect(cli(args(table, "--id", "other")).code).toBe(0);
    const start = () => {
      const child = spawn(process.execPath, [CLI, ...args(table, "--mode", "append")], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.on("exit", (code) => resolve({ code, stderr })),
      );
    };
    const ends = await Promise.all([start(), start()]);
    expect(ends.map((e) => e.code).sort()).toEqual([0, 1]);
    expect(ends.find((e) => e.code === 1)!.stderr).toContain(`already has rows with id "steps.nc"; use --mode replace`);
    expect(cli(["info", table]).stdout).toMatch(/^rows +150$/m);
  });

  it("a second signal exits at once with its code (130 or 143); check names the import and --repair removes its rows; the rerun imports once", async () => {
    const table = join(dir, "twice.lance");
    expect(cli(args(table)).code).toBe(0);
    // Sent at once, the two signals may reach the import in either order (a process's threads take
    // signals as they come): whichever arrives second ends it at once, with its own code.
    const { code, stderr } = await stopped(table, "replace", ["SIGINT", "SIGTERM"], 2);
    const second =
      /^lance-nd: a second signal \((SIGINT|SIGTERM)\): exiting now; lance-nd check --repair undoes the import\n$/.exec(
        stderr,
      );
    expect(second, stderr).not.toBeNull();
    expect(code).toBe(second![1] === "SIGINT" ? 130 : 143);
    const report = cli(["check", table]);
    expect(report.code).toBe(1);
    expect(report.stdout).toMatch(
      /^ {2}import [0-9a-f-]{36} \(--mode replace, process \d+ on .+\) did not end: \d+ rows of id "steps.nc" after version \d+$/m,
    );
    expect(report.stderr).toMatch(/is damaged: 1 import did not end, 1 stale writer lock \(run lance-nd check/);
    const repair = cli(["check", table, "--repair"]);
    expect(repair.code).toBe(0);
    expect(repair.stdout).toMatch(/^repair: undid the import [0-9a-f-]{36}: removed its rows$/m);
    expect(repair.stdout).toMatch(/^repair: broke the stale writer lock lance-nd-lock-[0-9a-f]{32}$/m);
    expect(cli(["info", table]).stdout).toMatch(/^rows +75$/m);
    expect(cli(args(table, "--mode", "replace")).stdout).toMatch(/75 rows in the table, 75 old rows replaced/);
  });

  it("SIGTERM stops a create with 143 and one line, and leaves no table", async () => {
    const table = join(dir, "created.lance");
    const { code, stderr } = await stopped(table, "create", ["SIGTERM"], 2);
    expect(code).toBe(143);
    expect(stderr).toBe(`lance-nd: import into ${table} interrupted by SIGTERM: stopped, no table was left\n`);
    expect(existsSync(table)).toBe(false);
  });
});
