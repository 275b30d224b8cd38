/**
 * Table maintenance commands: `delete`, `compact`, `cleanup`, `versions`,
 * `restore`, `widen`. Each opens the table, calls one lance-nd function and
 * reports the new state.
 */
import { Argument } from "commander";
import type { Command } from "commander";
import { widen } from "lance-nd";
import { TYPE_NAMES, parseArrowType } from "../args/arrow-type.js";
import { parseDuration } from "../args/duration.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { formatBytes } from "../output/disk-size.js";
import { failing } from "../report.js";
import { BRANCH_HELP, openTable, parseVersionOrTag, type TableFlags } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";

/** Prints `summary` as JSON with `--json`, else `line`. */
function report(io: Io, json: boolean | undefined, summary: object, line: string): void {
  if (json) printJson(io.stdout, summary);
  else println(io.stdout, line);
}

export function registerDelete(program: Command, io: Io): void {
  program
    .command("delete")
    .description("delete the rows that match a filter (a new version; the old one stays until cleanup)")
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .requiredOption("--where <sql>", "Lance SQL filter of the rows to delete")
    .option("--json", "print the summary as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd delete data/ocean.lance --where \"__global_attrs__.id = 'bad.nc'\"")
    .action((uri: string, options: { where: string; json?: boolean } & TableFlags) =>
      failing(`cannot delete from ${uri}`, async () => {
        const table = await openTable(uri, options);
        const { deleted, version } = await table.delete(options.where);
        const after = await table.countRows();
        const summary = { table: uri, deleted, rows: after, version };
        report(
          io,
          options.json,
          summary,
          `deleted ${summary.deleted} row${summary.deleted === 1 ? "" : "s"} from ${uri}: ${after} rows left, version ${summary.version}`,
        );
      }),
    );
}

export function registerCompact(program: Command, io: Io): void {
  program
    .command("compact")
    .description("merge small fragments and drop deleted rows (a new version with the same rows)")
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print the summary as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd compact data/ocean.lance")
    .action((uri: string, options: { json?: boolean } & TableFlags) =>
      failing(`cannot compact ${uri}`, async () => {
        const table = await openTable(uri, options);
        const { fragmentsRemoved, fragmentsAdded, version } = await table.compact();
        const summary = { table: uri, fragmentsRemoved, fragmentsAdded, version };
        report(
          io,
          options.json,
          summary,
          `compacted ${uri}: ${fragmentsRemoved} fragments merged into ${fragmentsAdded}, version ${version}`,
        );
      }),
    );
}

export function registerCleanup(program: Command, io: Io): void {
  program
    .command("cleanup")
    .description("remove versions older than a duration and the files only they used (the latest version always stays)")
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option(
      "--older-than <duration>",
      "age of the versions to remove: 90s, 15m, 12h, 7d",
      parseDuration,
      parseDuration("7d"),
    )
    .option("--json", "print the summary as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd cleanup data/ocean.lance --older-than 1h")
    .action((uri: string, options: { olderThan: number; json?: boolean } & TableFlags) =>
      failing(`cannot clean up ${uri}`, async () => {
        const table = await openTable(uri, options);
        const { versionsRemoved, bytesRemoved, keptByTags } = await table.cleanupOldVersions({
          olderThan: options.olderThan,
        });
        const kept = (await table.versions()).length;
        const summary = { table: uri, versionsRemoved, bytesRemoved, versions: kept, keptByTags };
        const byTags =
          keptByTags.length === 0
            ? ""
            : `; tags keep ${keptByTags.length} older version${keptByTags.length === 1 ? "" : "s"}: ${keptByTags
                .map((tag) => `${tag.name} (version ${tag.version})`)
                .join(", ")} (lance-nd tag <table> --delete <name> lets the next cleanup remove one)`;
        report(
          io,
          options.json,
          summary,
          `removed ${versionsRemoved} old version${versionsRemoved === 1 ? "" : "s"} of ${uri} (${formatBytes(bytesRemoved)} freed): ${kept} kept${byTags}`,
        );
      }),
    );
}

export function registerVersions(program: Command, io: Io): void {
  program
    .command("versions")
    .description(
      "list the versions of a table that cleanup has not removed; a version an import made before its last one is marked half an import",
    )
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd versions data/ocean.lance")
    .action((uri: string, options: { json?: boolean } & TableFlags) =>
      failing(`cannot read ${uri}`, async () => {
        const table = await openTable(uri, options);
        const list = (await table.versions()).map((v) => ({
          version: v.version,
          timestamp: v.timestamp.toISOString(),
          rows: v.metadata.total_rows === undefined ? null : Number(v.metadata.total_rows),
          halfImport: v.halfImport,
        }));
        if (options.json) {
          printJson(io.stdout, list);
          return;
        }
        println(io.stdout, `${"version".padEnd(9)}${"time (UTC)".padEnd(26)}rows`);
        for (const v of list) {
          const half =
            v.halfImport === null
              ? ""
              : `  half an import (complete: ${[v.halfImport.completeBefore, v.halfImport.completeAfter]
                  .filter((x) => x !== null)
                  .join(", ")})`;
          println(io.stdout, `${String(v.version).padEnd(9)}${v.timestamp.padEnd(26)}${String(v.rows ?? "?")}${half}`);
        }
      }),
    );
}

export function registerRestore(program: Command, io: Io): void {
  program
    .command("restore")
    .description("make an earlier version the latest, in a new version (nothing is lost)")
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .argument("<version>", "the version to restore: its number or a tag", parseVersionOrTag)
    .option("--force", "restore a version that is half an import (lance-nd versions marks them)")
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  lance-nd restore data/ocean.lance 2\n  lance-nd versions data/ocean.lance  # the versions to restore; those marked half an import need --force",
    )
    .action((uri: string, version: number | string, options: { json?: boolean; force?: boolean } & TableFlags) =>
      failing(
        `cannot restore ${typeof version === "number" ? `version ${version}` : `tag "${version}"`} of ${uri}`,
        async () => {
          const table = await openTable(uri, options);
          const latest = await table.restore(version, { force: options.force === true });
          const summary = { table: uri, restored: version, version: latest, rows: await table.countRows() };
          report(
            io,
            options.json,
            summary,
            `restored ${typeof version === "number" ? `version ${version}` : `tag "${version}"`} of ${uri} as version ${summary.version} (${summary.rows} rows)`,
          );
        },
      ),
    );
}

export function registerWiden(program: Command, io: Io): void {
  program
    .command("widen")
    .description("change the value type of a variable to a wider one that holds every old value (and its stats)")
    .argument("<table>", "the table")
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .argument("<variable>", "the variable")
    .addArgument(new Argument("<type>", `the new type: ${TYPE_NAMES.join(", ")}`).argParser(parseArrowType))
    .option("--json", "print the summary as JSON")
    .addHelpText("after", "\nExample:\n  lance-nd widen data/ocean.lance sst float64")
    .action(
      (
        uri: string,
        variable: string,
        type: ReturnType<typeof parseArrowType>,
        options: { json?: boolean } & TableFlags,
      ) =>
        failing(`cannot widen "${variable}" of ${uri} to ${String(type)}`, async () => {
          const latest = await widen(await openTable(uri, options), variable, type);
          const summary = { table: uri, variable, type: String(type), version: latest };
          report(
            io,
            options.json,
            summary,
            `widened "${variable}" of ${uri} to ${summary.type}: version ${summary.version}`,
          );
        }),
    );
}
