// The command line as a user runs it: the bundle packages/cli builds
// (`tsup`, its `build` script), started with node.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const PACKAGE = join(import.meta.dirname, "..", "..", "packages", "cli");

/** The built command line, `packages/cli/dist/cli.js`. */
export const CLI = join(PACKAGE, "dist", "cli.js");

/** What one run of the command line did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Builds packages/cli/dist (once per reliability run: the CLI's own tests keep their freshness check). */
export function buildCli(): void {
  const build = spawnSync(join(PACKAGE, "node_modules", ".bin", "tsup"), [], { cwd: PACKAGE, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`build of the CLI failed:\n${build.stdout}\n${build.stderr}`);
}

/** Runs `node packages/cli/dist/cli.js ...args` and waits for it. */
export function cli(args: readonly string[]): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: PACKAGE, encoding: "utf8" });
  if (run.error !== undefined) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
