/**
 * Runs the fixture scripts in ../fixtures with Debian's /usr/bin/python3
 * (numpy, xarray, python3-zarr) into a temp dir. Outside CI a missing oracle
 * skips the tests that need it (with the reason); under CI=true it fails them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The one Python the tests trust. */
export const PYTHON = "/usr/bin/python3";

function missing(): string | undefined {
  try {
    execFileSync(PYTHON, ["-c", "import numpy, xarray, zarr"], { stdio: "pipe" });
    return undefined;
  } catch (err) {
    return `${PYTHON} with numpy, xarray and zarr is not available (${err instanceof Error ? err.message.split("\n")[0] : String(err)})`;
  }
}

/** Why the oracle cannot run, or `undefined` when it can. */
export const oracleMissing = missing();

/** True when tests that need the oracle should be skipped (outside CI only). */
export const skipOracle = oracleMissing !== undefined && process.env.CI !== "true";
if (skipOracle) console.warn(`packages/zarr tests skipped: ${oracleMissing}`);

/** Runs `python` code (or a fixture `script` with args) and returns its stdout. */
export function python(args: string[]): string {
  if (oracleMissing !== undefined) throw new Error(oracleMissing);
  return execFileSync(PYTHON, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });
}

/** The path of fixture script `name`. */
export function fixtureScript(name: string): string {
  return join(import.meta.dirname, "..", "fixtures", name);
}

/** A fresh temp dir and its remover. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
