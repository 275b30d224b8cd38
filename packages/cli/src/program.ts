/** The `lance-nd` commander program: global options, output wiring, every command. */
import { Command } from "commander";
import pkg from "../package.json" with { type: "json" };
import type { Io } from "./io.js";
import { COMMANDS, type CommandEntry } from "./commands/catalog.js";

/**
 * A fresh program writing to `io`, for the arguments `argv`: the command
 * `argv` names (or `help <command>` asks about) is declared by its module,
 * loaded now; every other command is listed by its catalog entry alone, so
 * `--version`, `--help` and a command load only what they use. It never
 * exits the process: commander's usage errors are thrown as
 * `CommanderError` (see `run`).
 */
export async function createProgram(io: Io, argv: readonly string[]): Promise<Command> {
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
    // Each command listed by its usage line, as its own --help shows it (`import [options] <files...> <table>`).
    .configureHelp({ subcommandTerm: (command) => `${command.name()} ${command.usage()}` })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`lance-nd: ${text.replace(/^error: /, "")}`),
    })
    .addHelpText(
      "after",
      "\nExit codes: 0 success, 1 a failed command (one line on stderr says why), 2 a usage error.",
    );
  const wanted = commandNamed(argv);
  for (const entry of COMMANDS) {
    if (entry.name === wanted) (await entry.load())(program, io);
    else listed(program, entry);
  }
  for (const command of program.commands) command.option("--debug", "print the stack of an error");
  return program;
}

/** The command `argv` runs or asks help for: its first word that is not an option (the next one after `help`). */
function commandNamed(argv: readonly string[]): string | undefined {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  return words[0] === "help" ? words[1] : words[0];
}

/** `entry` as the program's help lists it, without its module: it never runs (the command run is declared in full). */
function listed(program: Command, entry: CommandEntry): void {
  const command = program.command(entry.name).description(entry.description);
  if (entry.args !== "") command.usage(`[options] ${entry.args}`);
}
