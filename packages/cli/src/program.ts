/** The `lance-nd` commander program: global options, output wiring, every command. */
import { Command } from "commander";
import pkg from "../package.json" with { type: "json" };
import type { Io } from "./io.js";
import { registerDemo } from "./commands/demo.js";
import { registerImport } from "./commands/import.js";
import { registerExport } from "./commands/export.js";
import { registerInfo } from "./commands/info.js";
import { registerVars } from "./commands/vars.js";
import { registerScan } from "./commands/scan.js";
import {
  registerCleanup,
  registerCompact,
  registerDelete,
  registerRestore,
  registerVersions,
  registerWiden,
} from "./commands/maintenance.js";
import { registerDefaults } from "./commands/defaults.js";
import { registerBranch, registerTag } from "./commands/version-control.js";
import { registerCheck } from "./commands/check.js";
import { registerIndex } from "./commands/key-index.js";
import { registerPlot } from "./commands/plot.js";
import { registerView } from "./view/command.js";

/**
 * A fresh program writing to `io`. It never exits the process: commander's
 * usage errors are thrown as `CommanderError` (see `run`).
 */
export function createProgram(io: Io): Command {
  const program = new Command("lance-nd")
    .description(
      "N-dimensional datasets (netCDF / xarray model) in Lance tables: import, inspect, scan, plot, maintain.",
    )
    .version(pkg.version)
    .option("--debug", "print the stack of an error")
    // Program options go before the command, so a command can have its own --version.
    .enablePositionalOptions()
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`lance-nd: ${text.replace(/^error: /, "")}`),
    })
    .addHelpText(
      "after",
      "\nExit codes: 0 success, 1 a failed command (one line on stderr says why), 2 a usage error.",
    );
  for (const register of [
    registerDemo,
    registerImport,
    registerExport,
    registerInfo,
    registerVars,
    registerScan,
    registerDelete,
    registerCompact,
    registerIndex,
    registerCleanup,
    registerVersions,
    registerRestore,
    registerTag,
    registerBranch,
    registerWiden,
    registerCheck,
    registerDefaults,
    registerPlot,
    registerView,
  ]) {
    register(program, io);
  }
  for (const command of program.commands) command.option("--debug", "print the stack of an error");
  return program;
}
