/** `lance-nd vars`: the variables (array columns) of a table. */
import type { Command } from "commander";
import { variables } from "lance-nd";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { BRANCH_HELP, openTable, parseVersionOrTag, type TableFlags, VERSION_HELP } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";

export function registerVars(program: Command, io: Io): void {
  program
    .command("vars")
    .description("list the variables of a table: value type, attribute keys, stats")
    .argument("<table>", "the table")
    .option("--version <n|tag>", VERSION_HELP, parseVersionOrTag)
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd vars lance-nd-demo/ocean.lance")
    .action((uri: string, options: { json?: boolean } & TableFlags) =>
      failing(`cannot read ${uri}`, async () => {
        const table = await openTable(uri, options, io);
        const rows = (await variables(table)).map((v) => ({
          name: v.name,
          type: String(v.valueType),
          attrs: v.attrs.map((a) => a.key),
          stats: v.hasStats,
        }));
        if (options.json) {
          printJson(io.stdout, rows);
          return;
        }
        const width = Math.max(4, ...rows.map((r) => r.name.length)) + 2;
        const typeWidth = Math.max(4, ...rows.map((r) => r.type.length)) + 2;
        println(io.stdout, `${"name".padEnd(width)}${"type".padEnd(typeWidth)}stats  attrs`);
        for (const r of rows)
          println(
            io.stdout,
            `${r.name.padEnd(width)}${r.type.padEnd(typeWidth)}${(r.stats ? "yes" : "no").padEnd(7)}${r.attrs.join(", ")}`,
          );
      }),
    );
}
