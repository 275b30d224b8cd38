/**
 * The Python oracles of the tests: Debian's /usr/bin/python3 with its
 * python3-* modules (numpy, xarray, netCDF4, zarr, ...), probed for the
 * modules a test needs and run on a script whose stdout the test parses.
 */
import { spawnSync } from "node:child_process";
import { skipReason } from "./missing-oracle.js";

/** The one Python the tests trust: Debian's, with the python3-* oracle modules. */
export const PYTHON = "/usr/bin/python3";

// Imports each module named on the command line; prints the ones that fail.
const PROBE = [
  "import importlib, sys",
  "missing = []",
  "for name in sys.argv[1:]:",
  "    try: importlib.import_module(name)",
  "    except Exception: missing.append(name)",
  "print(' '.join(missing))",
].join("\n");

const probed = new Map<string, string | undefined>();

/**
 * Why the Python oracles are left out of this run on purpose, or undefined
 * when they are in: the quick test command (`test:quick`) sets
 * `LANCE_ND_ORACLES=none`. A left-out oracle is not a missing one: its tests
 * skip under `CI=true` too.
 */
export function pythonLeftOut(): string | undefined {
  return process.env.LANCE_ND_ORACLES === "none"
    ? "the Python oracles are left out (LANCE_ND_ORACLES=none)"
    : undefined;
}

/**
 * Why `modules` cannot be imported by {@link PYTHON} ("/usr/bin/python3 lacks
 * xarray, zarr", or that python3 is missing), or undefined when they all can.
 * Probed once per module list and process. When the oracles are left out
 * ({@link pythonLeftOut}), this says so.
 */
export function pythonMissing(modules: readonly string[]): string | undefined {
  const leftOut = pythonLeftOut();
  if (leftOut !== undefined) return leftOut;
  const key = modules.join(" ");
  if (!probed.has(key)) {
    const run = spawnSync(PYTHON, ["-c", PROBE, ...modules], { encoding: "utf8" });
    const lacks = run.stdout?.trim();
    probed.set(
      key,
      run.error !== undefined || run.status !== 0
        ? `${PYTHON} does not run (${run.error?.message ?? run.stderr.trim().split("\n").at(-1)})`
        : lacks
          ? `${PYTHON} lacks ${lacks.split(" ").join(", ")}`
          : undefined,
    );
  }
  return probed.get(key);
}

/**
 * Why the tests of `oracle` (e.g. "xarray oracle") skip here, or undefined
 * when they run: the {@link skipReason} rule over {@link pythonMissing}, so
 * under `CI=true` a missing module fails the tests; oracles left out on
 * purpose ({@link pythonLeftOut}) skip them, under CI too. `install` names the
 * Debian packages that bring the modules (e.g. "apt-get install python3-xarray").
 */
export function pythonSkipReason(oracle: string, modules: readonly string[], install: string): string | undefined {
  const leftOut = pythonLeftOut();
  if (leftOut !== undefined) return `${oracle} skipped: ${leftOut}`;
  const missing = pythonMissing(modules);
  return skipReason(missing === undefined ? undefined : `${oracle} skipped: ${missing} (${install})`);
}

/** Options of {@link runPython}. */
export interface RunPythonOptions {
  /** Text written to the script's stdin. */
  input?: string;
}

/**
 * Runs {@link PYTHON} with `args` (a script and its arguments, or `-c` and
 * code) and returns its stdout; throws with its stderr when it fails.
 */
export function runPython(args: readonly string[], options: RunPythonOptions = {}): string {
  const run = spawnSync(PYTHON, args, { encoding: "utf8", maxBuffer: 256 * 2 ** 20, input: options.input });
  if (run.error !== undefined || run.status !== 0)
    throw new Error(`${args[0] === "-c" ? "python3 -c" : args[0]} failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}
