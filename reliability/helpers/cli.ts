// The command line as a user runs it: the bundle packages/cli builds
// (`tsup`, its `build` script), started with node.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
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

/**
 * Checks that packages/cli/dist is built. `test:reliability` builds it once
 * before the suite (its `build` script, tsup); files build nothing
 * themselves, because the suite's files run in parallel and a build cleans
 * the bundle another file is running.
 */
export function requireBuiltCli(): void {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run \`npx --yes pnpm@12.21.0 --filter @lance-nd/cli build\` first`);
}

/** Runs `node packages/cli/dist/cli.js ...args` and waits for it. */
export function cli(args: readonly string[]): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: PACKAGE, encoding: "utf8" });
  if (run.error !== undefined) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
