/**
 * The root README's everyday way to run `lance-nd` from any folder, run as
 * written: its alias (the built bundle, started by node) defined in the
 * repository root, then its example line in another folder, where relative
 * paths mean that folder.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { ensureBuilt, tempDir } from "./harness.js";

beforeAll(ensureBuilt);

const root = join(import.meta.dirname, "..", "..", "..", "..");

/** The two lines of the README's block after "To run `lance-nd` from any folder". */
function readmeLines(): [alias: string, example: string] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const at = readme.indexOf("To run `lance-nd` from any folder");
  const start = readme.indexOf("```sh\n", at) + 6;
  const lines = readme.slice(start, readme.indexOf("```", start)).trim().split("\n");
  expect(lines).toHaveLength(2);
  return lines as [string, string];
}

it("the README's alias runs the bundle from any folder: its example writes and reads there, stdout holds only the output", () => {
  const [alias, example] = readmeLines();
  const folder = tempDir();
  const script = [
    "shopt -s expand_aliases",
    `cd ${JSON.stringify(root)}`,
    alias,
    `cd ${JSON.stringify(folder)}`,
    example,
    "lance-nd --version",
  ].join("\n");
  const run = spawnSync("bash", ["-c", script], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(existsSync(join(folder, "lance-nd-demo", "ocean.lance"))).toBe(true);
  expect(existsSync(join(folder, "data", "ocean.lance"))).toBe(true);
  expect(existsSync(join(root, "data", "ocean.lance"))).toBe(false);
  const lines = run.stdout.trim().split("\n");
  expect(lines.at(-1)).toMatch(/^\d+\.\d+\.\d+$/);
  expect(run.stdout).toMatch(/^rows\s+1$/m); // the demo's nine chunks, exported as one dataset, imported as one row
});
