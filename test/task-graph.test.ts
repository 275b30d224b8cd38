import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The build and type-check tasks follow the package graph (turbo.json's
// `transit` task): a change in any workspace package a task reaches changes
// that task's hash, so turbo never serves a stale CLI bundle or a stale
// type check from its cache.
const root = join(import.meta.dirname, "..");
const turbo = join(root, "node_modules", ".bin", "turbo");
const copy = mkdtempSync(join(tmpdir(), "lance-nd-task-graph-"));

interface DryTask {
  taskId: string;
  hash: string;
}

/**
 * Task hashes of `turbo run <tasks> --dry=json` in the copy. Its stderr
 * (turbo's notice that the copy has no turbo of its own) stays out of the
 * test output; a failure throws with it.
 */
function hashes(tasks: string[], filter: string): Map<string, string> {
  const out = execFileSync(turbo, ["run", ...tasks, `--filter=${filter}`, "--dry=json"], {
    cwd: copy,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  const dry = JSON.parse(out) as { tasks: DryTask[] };
  return new Map(dry.tasks.map((t) => [t.taskId, t.hash]));
}

beforeAll(() => {
  const skip = new Set(["node_modules", "dist", ".turbo", ".git", ".tmp"]);
  for (const entry of ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "turbo.json", "packages"]) {
    cpSync(join(root, entry), join(copy, entry), {
      recursive: true,
      filter: (src) => !skip.has(basename(src)),
    });
  }
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("turbo task graph", () => {
  it("a source change in zarr changes the CLI bundle's build hash", () => {
    const before = hashes(["build"], "@lance-nd/cli").get("@lance-nd/cli#build");
    appendFileSync(join(copy, "packages/zarr/src/open-zarr.ts"), "\n// edited\n");
    const after = hashes(["build"], "@lance-nd/cli").get("@lance-nd/cli#build");
    expect(before).toBeDefined();
    expect(after).not.toBe(before);
  });

  it("a source change in nd-arrow changes the type-check hash of lance-nd, which depends on it", () => {
    const before = hashes(["typecheck"], "lance-nd").get("lance-nd#typecheck");
    appendFileSync(join(copy, "packages/nd-arrow/src/index.ts"), "\n// edited\n");
    const after = hashes(["typecheck"], "lance-nd").get("lance-nd#typecheck");
    expect(before).toBeDefined();
    expect(after).not.toBe(before);
  });

  it("the CLI's build does not wait for the libraries' builds (it bundles their sources)", () => {
    const tasks = [...hashes(["build"], "@lance-nd/cli").keys()];
    expect(tasks.filter((t) => t.endsWith("#build"))).toEqual(["@lance-nd/cli#build"]);
  });
});
