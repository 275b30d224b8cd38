/**
 * Loads h5wasm (the HDF5 C library in WebAssembly, Node build with direct
 * file system access) on first use, so commands that never touch netCDF-4
 * do not pay for the wasm start-up.
 */
import type * as H5 from "h5wasm";

/** The h5wasm namespace (File, Group, Dataset, ...). */
export type H5Wasm = typeof H5;

let loading: Promise<H5Wasm> | undefined;

/**
 * The h5wasm library, ready to open files by their real path. HDF5 errors
 * throw (instead of printing HDF5-DIAG stacks to stderr and going on).
 */
export function loadH5wasm(): Promise<H5Wasm> {
  loading ??= import("h5wasm/node").then(async (h5) => {
    const module = await h5.ready;
    module.activate_throwing_error_handler();
    return h5;
  });
  return loading;
}

/** The most specific line of an HDF5 error stack, e.g. "truncated file: eof = 600, ...". */
export function hdf5ErrorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split("\n").filter((line) => /^\s*#\d+:/.test(line));
  const last = lines.at(-1);
  return last === undefined ? text.trim().split("\n")[0] ?? "" : last.replace(/^.*?\(\): /, "").trim();
}
