/** `lance-nd defaults`: show or change the encoding defaults of new columns. */
import type { Command } from "commander";
import type { ColumnOptions } from "@lance-nd/format";
import { columnDefaults, setColumnDefaults } from "lance-nd";
import { BRANCH_HELP, openTable, type TableFlags } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";
import { parseAssignments } from "../args/assignments.js";
import { DEFAULT_SETTINGS, columnOptionsFrom } from "../args/column-options.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";

/**
 * Column options as the settings `defaults --set` takes, e.g.
 * `{ compression: "zstd", "compression-level": "3", bss: "on" }`.
 */
export function settingsOf(options: ColumnOptions): Record<string, string> {
  const out: Record<string, string> = {};
  if (options.compression !== undefined) {
    const { codec, level } =
      typeof options.compression === "string" ? { codec: options.compression, level: undefined } : options.compression;
    out.compression = codec;
    if (level !== undefined) out["compression-level"] = String(level);
  }
  if (options.bss !== undefined) out.bss = options.bss;
  if (options.structuralEncoding !== undefined) out["structural-encoding"] = options.structuralEncoding;
  if (options.rleThreshold !== undefined) out["rle-threshold"] = String(options.rleThreshold);
  return out;
}

export function registerDefaults(program: Command, io: Io): void {
  program
    .command("defaults")
    .description("show or change the encoding defaults that new columns get (existing columns keep theirs)")
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option(
      "--set <setting=value,...>",
      "change settings (repeatable); see below",
      (text, prev?: Map<string, string>) => parseAssignments(text, prev),
    )
    .option("--json", "print the defaults as JSON")
    .addHelpText(
      "after",
      [
        "",
        "Settings:",
        ...Object.entries(DEFAULT_SETTINGS).map(([k, v]) => `  ${k.padEnd(21)}${v}`),
        "",
        "Examples:",
        "  lance-nd defaults data/ocean.lance",
        "  lance-nd defaults data/ocean.lance --set compression=zstd,compression-level=3 --set bss=on",
      ].join("\n"),
    )
    .action((uri: string, options: { set?: Map<string, string>; json?: boolean } & TableFlags) =>
      failing(
        options.set === undefined ? `cannot read the defaults of ${uri}` : `cannot change the defaults of ${uri}`,
        async () => {
          const table = await openTable(uri, options);
          let current = await columnDefaults(table);
          if (options.set !== undefined) {
            const next = columnOptionsFrom(options.set, current);
            await setColumnDefaults(table, next);
            current = await columnDefaults(table);
          }
          const settings = settingsOf(current);
          if (options.json) printJson(io.stdout, settings);
          else if (Object.keys(settings).length === 0)
            println(io.stdout, "no column defaults (new columns get Lance's own encoding)");
          else for (const [key, value] of Object.entries(settings)) println(io.stdout, `${key}=${value}`);
        },
      ),
    );
}
