/**
 * The commands of `lance-nd`, as its help lists them, each with the module
 * that declares it, loaded only when the command runs (or shows its own
 * help): `lance-nd --version` and `--help` load none of lancedb, Arrow or
 * h5wasm, and a command loads what it uses (CLI README, "Inside the
 * package"). test/program.test.ts checks each entry against the command its
 * module declares.
 */
import type { Command } from "commander";
import type { Io } from "../io.js";

/** One command: its name, arguments and description as the program's help lists them, and its declaration. */
export interface CommandEntry {
  readonly name: string;
  /** The arguments as commander writes them (`<table> [name]`). */
  readonly args: string;
  readonly description: string;
  /** The module's `register` function, which declares the command, its options and its action. */
  load(): Promise<(program: Command, io: Io) => void>;
}

/** Every command, in the order of the help. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "demo",
    args: "",
    description: "write a demo table (monthly sea surface temperature), query it and plot a slice",
    load: async () => (await import("./demo.js")).registerDemo,
  },
  {
    name: "import",
    args: "<files...> <table>",
    description:
      "import netCDF-3 / netCDF-4 files and Zarr v2 / v3 stores into a table: one row per file (or per chunk), every variable with its dims and attributes",
    load: async () => (await import("./import.js")).registerImport,
  },
  {
    name: "export",
    args: "<table> <out>",
    description:
      "write one dataset (a row, or the chunks of one dataset assembled) to a netCDF-4 file or a Zarr store, as it was imported",
    load: async () => (await import("./export.js")).registerExport,
  },
  {
    name: "info",
    args: "<table>",
    description:
      "show a table's branch, tags, format version, rows, versions, fragments, size on disk, stats and column defaults",
    load: async () => (await import("./info.js")).registerInfo,
  },
  {
    name: "vars",
    args: "<table>",
    description: "list the variables of a table: value type, attribute keys, stats",
    load: async () => (await import("./vars.js")).registerVars,
  },
  {
    name: "scan",
    args: "<table>",
    description:
      "read rows: one line per row (global attributes, arrays with type, dims and first values), or JSON / NDJSON / Arrow",
    load: async () => (await import("./scan.js")).registerScan,
  },
  {
    name: "rechunk",
    args: "<table>",
    description:
      "write another layout of a dataset: the same values in rows of a new chunk shape, which reads take when it touches fewer bytes",
    load: async () => (await import("./rechunk.js")).registerRechunk,
  },
  {
    name: "delete",
    args: "<table>",
    description: "delete the rows that match a filter (a new version; the old one stays until cleanup)",
    load: async () => (await import("./maintenance.js")).registerDelete,
  },
  {
    name: "compact",
    args: "<table>",
    description: "merge small fragments and drop deleted rows (a new version with the same rows)",
    load: async () => (await import("./maintenance.js")).registerCompact,
  },
  {
    name: "index",
    args: "<table> [key]",
    description: "index a global attribute (e.g. id) for fast reads of rows by it; without <key>, list the key indexes",
    load: async () => (await import("./key-index.js")).registerIndex,
  },
  {
    name: "cleanup",
    args: "<table>",
    description: "remove versions older than a duration and the files only they used (the latest version always stays)",
    load: async () => (await import("./maintenance.js")).registerCleanup,
  },
  {
    name: "versions",
    args: "<table>",
    description:
      "list the versions of a table that cleanup has not removed; a version an import made before its last one is marked half an import",
    load: async () => (await import("./maintenance.js")).registerVersions,
  },
  {
    name: "restore",
    args: "<table> <version>",
    description: "make an earlier version the latest, in a new version (nothing is lost)",
    load: async () => (await import("./maintenance.js")).registerRestore,
  },
  {
    name: "tag",
    args: "<table> [name] [version]",
    description: "name a version of main for good (cleanup keeps it), list the tags, or remove one",
    load: async () => (await import("./version-control.js")).registerTag,
  },
  {
    name: "branch",
    args: "<table> [name]",
    description:
      "make a branch of a table (a writable line of history; --branch <name> on any command uses it), list the branches, or remove one",
    load: async () => (await import("./version-control.js")).registerBranch,
  },
  {
    name: "widen",
    args: "<table> <variable> <type>",
    description: "change the value type of a variable to a wider one that holds every old value (and its stats)",
    load: async () => (await import("./maintenance.js")).registerWiden,
  },
  {
    name: "check",
    args: "<table>",
    description:
      "read every version's manifest and every file, row and key index of the newest readable version; report what is damaged (and with --repair remove only that)",
    load: async () => (await import("./check.js")).registerCheck,
  },
  {
    name: "defaults",
    args: "<table>",
    description: "show or change the encoding defaults that new columns get (existing columns keep theirs)",
    load: async () => (await import("./defaults.js")).registerDefaults,
  },
  {
    name: "plot",
    args: "<table> <variable>",
    description:
      "plot a 2-D slice of a variable as a heatmap PNG (viridis, NaN and null grey, units from the variable), or a 1-D one as a line",
    load: async () => (await import("./plot.js")).registerPlot,
  },
  {
    name: "view",
    args: "<table>",
    description:
      "look at a table in the browser: its datasets, variables, and any 2-D slice as a heatmap (a local, read-only server)",
    load: async () => (await import("../view/command.js")).registerView,
  },
  {
    name: "serve",
    args: "<table>",
    description:
      "serve each dataset of a table as a Zarr group over HTTP (v2 with consolidated metadata, or v3) for xarray, zarr-python and zarrita (a local, read-only server)",
    load: async () => (await import("../serve/command.js")).registerServe,
  },
];
