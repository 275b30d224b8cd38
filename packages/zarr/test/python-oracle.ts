/**
 * Runs the fixture scripts in ../fixtures with Debian's /usr/bin/python3
 * (numpy, xarray, python3-zarr) into a temp dir. Outside CI a missing oracle
 * skips the tests that need it (with the reason); under CI=true it fails them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pythonMissing, pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { afterAll, beforeAll } from "vitest";

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

/** The stores a fixture script wrote into a temp dir, and the answers it wrote beside them (`expected.json`). */
export interface FixtureStores<T> {
  readonly dir: string;
  readonly expected: T;
}

/**
 * Runs fixture `script` into a fresh temp dir (named from `prefix`) before
 * the tests of the file that calls it (not when the oracle is skipped),
 * reads the `expected.json` it writes, and removes the dir after the tests.
 */
export function fixtureStores<T = unknown>(script: string, prefix: string): FixtureStores<T> {
  return storesWrittenBy([fixtureScript(script)], prefix);
}

/** As {@link fixtureStores}, with Python `code` (its `sys.argv[1]` the dir) in place of a fixture script. */
export function pythonStores<T = unknown>(code: string, prefix: string): FixtureStores<T> {
  return storesWrittenBy(["-c", code], prefix);
}

/** The stores `python` run with `args` and the dir writes there, before the tests; the dir removed after them. */
function storesWrittenBy<T>(args: readonly string[], prefix: string): FixtureStores<T> {
  const stores = { dir: "", expected: undefined as T };
  let made: ReturnType<typeof tempDir> | undefined;
  beforeAll(() => {
    if (skipOracle) return;
    made = tempDir(prefix);
    python([...args, made.dir]);
    stores.dir = made.dir;
    stores.expected = JSON.parse(readFileSync(join(made.dir, "expected.json"), "utf8")) as T;
  });
  afterAll(() => made?.remove());
  return stores;
}
