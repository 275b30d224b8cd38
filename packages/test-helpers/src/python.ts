/**
 * The Python oracles of the tests: Debian's /usr/bin/python3 with its
 * python3-* modules (numpy, xarray, netCDF4, zarr, ...), probed for the
 * modules a test needs and run on a script whose stdout the test parses.
 * The scripts run in one Python process per test file
 * (scripts/python-server.py), which imports the modules once.
 */
import { fileURLToPath } from "node:url";
import { KeptProcess } from "./kept-process.js";
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
    const run = callPython(["-c", PROBE, ...modules]);
    const lacks = run.stdout.trim();
    probed.set(
      key,
      run.status !== 0
        ? `${PYTHON} does not run (${run.stderr.trim().split("\n").at(-1)})`
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

/** A request to scripts/python-server.py and its answer. */
interface PythonRequest {
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  input: string | undefined;
}
interface PythonAnswer {
  code: number;
  stdout: string;
  stderr: string;
}

let kept: KeptProcess<PythonRequest, PythonAnswer> | undefined;

/** What a run of {@link PYTHON} did, as `spawnSync` tells it: its exit status (null when it could not run), stdout and stderr. */
export interface PythonRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `args` (a script and its arguments, or `-c` and code) as
 * {@link PYTHON} would, in this test file's Python process (started on the
 * first call), and returns what it did.
 */
export function callPython(args: readonly string[], options: RunPythonOptions = {}): PythonRun {
  kept ??= new KeptProcess(PYTHON, [fileURLToPath(new URL("../scripts/python-server.py", import.meta.url))]);
  const answer = kept.call({ args, cwd: process.cwd(), env: { ...process.env }, input: options.input });
  return "error" in answer
    ? { status: null, stdout: "", stderr: answer.error }
    : { status: answer.code, stdout: answer.stdout, stderr: answer.stderr };
}

/**
 * Runs `args` (a script and its arguments, or `-c` and code) as
 * {@link PYTHON} would and returns its stdout; throws with its stderr when
 * it fails.
 */
export function runPython(args: readonly string[], options: RunPythonOptions = {}): string {
  const run = callPython(args, options);
  if (run.status !== 0) throw new Error(`${args[0] === "-c" ? "python3 -c" : args[0]} failed: ${run.stderr}`);
  return run.stdout;
}
