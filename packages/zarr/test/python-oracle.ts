/**
 * Runs the fixture scripts in ../fixtures with Debian's /usr/bin/python3
 * (numpy, xarray, python3-zarr) into a temp dir. Outside CI a missing oracle
 * skips the tests that need it (with the reason); under CI=true it fails them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pythonMissing, pythonSkipReason, runPython } from "@lance-nd/test-helpers";

const MODULES = ["numpy", "xarray", "zarr"];

/** True when tests that need the oracle should be skipped (outside CI only). */
export const skipOracle =
  pythonSkipReason("packages/zarr oracle", MODULES, "apt-get install python3-xarray python3-zarr") !== undefined;

/** Runs `python` code (or a fixture `script` with args) and returns its stdout. */
export function python(args: string[]): string {
  const missing = pythonMissing(MODULES);
  if (missing !== undefined) throw new Error(missing);
  return runPython(args);
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
