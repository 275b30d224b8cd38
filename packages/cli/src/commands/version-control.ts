/**
 * `lance-nd tag` and `lance-nd branch`: tags name versions of main for good;
 * branches are writable lines of history that every command reaches with
 * `--branch <name>` (lance-nd README, "Version control").
 */
import type { Command } from "commander";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { type StorageOptionFlags, storageOptionFlag } from "../args/storage-options.js";
import type { NdTable } from "lance-nd";
import { CliError } from "../errors.js";
import { openTable, parseVersionOrTag } from "../args/open-table.js";

/** The version number of `version`: a number as it is, a tag by the version it names (`InvalidArgument` for no such tag). */
async function versionNumber(table: NdTable, version: number | string | undefined): Promise<number | undefined> {
  if (typeof version !== "string") return version;
  const tag = (await table.tags()).find((t) => t.name === version);
  if (tag === undefined) throw new CliError("InvalidArgument", `no tag "${version}" (lance-nd tag lists them)`);
  return tag.version;
}

/** Where `branch --from` starts: a version number, a branch name, or the version a tag names. */
async function startOf(table: NdTable, from: string | undefined): Promise<string | number | undefined> {
  if (from === undefined) return undefined;
  if (/^\d+$/.test(from)) return Number(from);
  if (from === "main" || (await table.branches()).some((b) => b.name === from)) return from;
  return (await table.tags()).find((t) => t.name === from)?.version ?? from;
}

export function registerTag(program: Command, io: Io): void {
  program
    .command("tag")
    .description("name a version of main for good (cleanup keeps it), list the tags, or remove one")
    .argument("<table>", "the table")
    .argument("[name]", "the tag to make (list the tags when left out)")
    .argument("[version]", "the version to tag: its number or another tag (default: the latest)", parseVersionOrTag)
    .option("--delete <name>", "remove this tag (the version stays until cleanup)")
    .addOption(storageOptionFlag())
    .option("--json", "print as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  lance-nd tag data/ocean.lance v1\n  lance-nd tag data/ocean.lance first 1\n  lance-nd tag data/ocean.lance also-v1 v1\n  lance-nd tag data/ocean.lance --json\n  lance-nd tag data/ocean.lance --delete first",
    )
    .action(
      (
        uri: string,
        name: string | undefined,
        version: number | string | undefined,
        options: { delete?: string; json?: boolean } & StorageOptionFlags,
      ) =>
        failing(`cannot tag ${uri}`, async () => {
          const table = await openTable(uri, options);
          if (options.delete !== undefined) {
            await table.untag(options.delete);
            if (options.json) printJson(io.stdout, { table: uri, removed: options.delete });
            else println(io.stdout, `removed tag "${options.delete}" of ${uri}`);
            return;
          }
          if (name !== undefined) {
            const tagged = await table.tag(name, await versionNumber(table, version));
            if (options.json) printJson(io.stdout, { table: uri, tag: name, version: tagged });
            else println(io.stdout, `tagged version ${tagged} of ${uri} "${name}"`);
            return;
          }
          const list = await table.tags();
          if (options.json) {
            printJson(io.stdout, list);
            return;
          }
          if (list.length === 0) println(io.stdout, `no tags (lance-nd tag ${uri} <name> makes one)`);
          else
            for (const t of list)
              println(
                io.stdout,
                `${t.name.padEnd(Math.max(6, ...list.map((x) => x.name.length + 2)))}version ${t.version}`,
              );
        }),
    );
}

/** The options of `branch`. */
interface BranchOptions extends StorageOptionFlags {
  from?: string;
  delete?: string;
  json?: boolean;
}

export function registerBranch(program: Command, io: Io): void {
  program
    .command("branch")
    .description(
      "make a branch of a table (a writable line of history; --branch <name> on any command uses it), list the branches, or remove one",
    )
    .argument("<table>", "the table")
    .argument("[name]", "the branch to make (list the branches when left out)")
    .option(
      "--from <branch|version|tag>",
      "where the branch starts: a branch name, a version of main or a tag (default: the latest of main)",
    )
    .option("--delete <name>", "remove this branch")
    .addOption(storageOptionFlag())
    .option("--json", "print as JSON")
    .addHelpText(
      "after",
      [
        "\nExamples:",
        "  lance-nd branch data/ocean.lance trial",
        "  lance-nd branch data/ocean.lance first --from 1",
        "  lance-nd delete data/ocean.lance --branch trial --where \"__global_attrs__.id = 'sst-2000.nc'\"",
        "  lance-nd branch data/ocean.lance --json",
        "  lance-nd branch data/ocean.lance --delete first",
      ].join("\n"),
    )
    .action((uri: string, name: string | undefined, options: BranchOptions) =>
      failing(`cannot branch ${uri}`, async () => {
        const table = await openTable(uri, options);
        if (options.delete !== undefined) {
          await table.deleteBranch(options.delete);
          if (options.json) printJson(io.stdout, { table: uri, removed: options.delete });
          else println(io.stdout, `removed branch "${options.delete}" of ${uri}`);
          return;
        }
        if (name !== undefined) {
          const from = await startOf(table, options.from);
          const created = await table.createBranch(name, from === undefined ? {} : { from });
          const summary = {
            table: uri,
            branch: name,
            from: options.from ?? "main",
            version: await created.version(),
            rows: await created.countRows(),
          };
          if (options.json) printJson(io.stdout, summary);
          else
            println(
              io.stdout,
              `made branch "${name}" of ${uri} from ${summary.from} (${summary.rows} rows); use it with --branch ${name}`,
            );
          return;
        }
        const list = await table.branches();
        if (options.json) {
          printJson(io.stdout, list);
          return;
        }
        if (list.length === 0) println(io.stdout, `no branches (lance-nd branch ${uri} <name> makes one)`);
        for (const b of list)
          println(
            io.stdout,
            `${b.name.padEnd(Math.max(6, ...list.map((x) => x.name.length + 2)))}from ${b.parentBranch ?? "main"} version ${b.parentVersion}`,
          );
      }),
    );
}
