/**
 * Loads h5wasm (the HDF5 C library in WebAssembly, Node build with direct
 * file system access) on first use, so programs that never touch netCDF-4 do
 * not pay for the wasm start-up, with the HDF5 filter plugins of
 * h5wasm-plugins (zstd, blosc, lz4, bzip2, ...) on its plugin path; and the
 * few low-level calls this package makes itself, because h5wasm's high-level
 * objects repeat them (each `Attribute` reads its metadata twice,
 * `get_attached_scales` walks every scale of the file for every variable).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as H5 from "h5wasm";

/** The h5wasm namespace (File, Dataset, ...). */
export type H5Wasm = typeof H5;

/** HDF5 type metadata as h5wasm reports it. */
export type H5Metadata = H5.Metadata;

/** h5wasm's low-level module (its Emscripten functions, names as h5wasm exports them). */
export type H5Module = typeof H5.Module;

/**
 * The folder of h5wasm-plugins' filters, compiled to WebAssembly side modules
 * that HDF5 loads on the first read of a variable that needs one.
 */
function pluginFolder(): string {
  return join(dirname(createRequire(import.meta.url).resolve("h5wasm-plugins/package.json")), "plugins");
}

let loading: Promise<{ h5: H5Wasm; module: H5Module }> | undefined;

/**
 * The h5wasm library and its module, ready to open files by their real
 * path. HDF5 errors throw (instead of printing HDF5-DIAG stacks to stderr
 * and going on).
 */
export function loadH5wasm(): Promise<{ h5: H5Wasm; module: H5Module }> {
  loading ??= import("h5wasm/node").then(async (h5) => {
    const module = await h5.ready;
    module.activate_throwing_error_handler();
    module.insert_plugin_search_path(pluginFolder(), 0);
    return { h5, module };
  });
  return loading;
}

/** The most specific line of an HDF5 error stack, e.g. "truncated file: eof = 600, ...". */
export function hdf5ErrorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split("\n").filter((line) => /^\s*#\d+:/.test(line));
  const last = lines.at(-1);
  return last === undefined ? (text.trim().split("\n")[0] ?? "") : last.replace(/^.*?\(\): /, "").trim();
}
