/**
 * `index`: a key index on a global attribute, so that reads of rows by that
 * key (`scan --where "__global_attrs__.id = '…'"`) find them from the index
 * (packages/lance-nd/README.md, "Key indexes").
 */
import type { Command } from "commander";
import { indexGlobalAttr, keyIndexes } from "lance-nd";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { BRANCH_HELP, openTable, type TableFlags } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";

export function registerIndex(program: Command, io: Io): void {
  program
    .command("index")
    .description("index a global attribute (e.g. id) for fast reads of rows by it; without <key>, list the key indexes")
    .argument("<table>", "the table")
    .argument("[key]", "the global attribute to index (built again if it has an index)")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print the key indexes as JSON")
    .addHelpText(
      "after",
      "\nRows written after the index are found by a scan of theirs alone until `lance-nd compact` adds them.\n\nExamples:\n  lance-nd index data/ocean.lance id\n  lance-nd index data/ocean.lance",
    )
    .action((uri: string, key: string | undefined, options: { json?: boolean } & TableFlags) =>
      failing(`cannot index ${uri}`, async () => {
        const table = await openTable(uri, options);
        const version = key === undefined ? await table.version() : await indexGlobalAttr(table, key);
        const indexes = await keyIndexes(table);
        if (options.json) {
          printJson(io.stdout, { table: uri, version, indexes });
          return;
        }
        if (key !== undefined) println(io.stdout, `indexed global attribute "${key}" of ${uri}: version ${version}`);
        if (indexes.length === 0) println(io.stdout, `${uri} has no key index`);
        for (const index of indexes) {
          const pending = index.unindexedRows === 0 ? "" : ` (${index.unindexedRows} newer rows not indexed yet)`;
          println(io.stdout, `key index: ${index.key}${pending}`);
        }
      }),
    );
}
