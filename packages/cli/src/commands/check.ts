/**
 * `lance-nd check <table> [--repair] [--json]`: reads every manifest and
 * every row of the newest readable version and reports what cannot be read;
 * `--repair` moves broken manifests aside, deletes unreadable rows and
 * completes a widen replay a killed widen left, listing each
 * (packages/lance-nd README, "check" and "Widen").
 */
import type { Command } from "commander";
import { check, type CheckReport } from "lance-nd";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { importDamage, printImportRepair, printImports } from "./check-imports.js";

export function registerCheck(program: Command, io: Io): void {
  program
    .command("check")
    .description(
      "read every version's manifest and every row of the newest readable version; report (and with --repair remove) what cannot be read",
    )
    .argument("<table>", "the table")
    .option(
      "--repair",
      "move manifests that do not open into <table>/_lance_nd_quarantine, delete unreadable rows, complete a killed widen's replay and undo imports that did not end, listing each",
    )
    .option("--branch <name>", "refused: check reads the manifests of main only (a branch's are in another folder)")
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nExit code 1 when damage remains (after --repair: when the repair did not leave a whole table)." +
        "\n\nExamples:\n  lance-nd check data/ocean.lance\n  lance-nd check data/ocean.lance --repair --json",
    )
    .action((uri: string, options: { repair?: boolean; json?: boolean; branch?: string }) =>
      failing(`cannot check ${uri}`, async () => {
        if (options.branch !== undefined) {
          throw new CliError(
            "InvalidArgument",
            `--branch ${options.branch}: check reads the version manifests of main only; check the table without --branch`,
          );
        }
        const report = await check(uri, { repair: options.repair === true });
        if (options.json) printJson(io.stdout, report);
        else printReport(io, report);
        const whole = report.ok || report.repair?.ok === true;
        if (!whole) {
          const hint = options.repair ? "the repair did not leave a whole table" : `run lance-nd check ${uri} --repair`;
          throw new CliError("InvalidFile", `${uri} is damaged: ${damage(report)} (${hint})`, { path: uri });
        }
      }),
    );
}

/** The damage in one phrase. */
function damage(report: CheckReport): string {
  const broken = report.versions.filter((v) => !v.readable).length;
  const parts = [
    broken === 0 ? "" : `${broken} version${broken === 1 ? " does" : "s do"} not open`,
    report.unreadableRows.length === 0
      ? ""
      : `${report.unreadableRows.length} unreadable row${report.unreadableRows.length === 1 ? "" : "s"}`,
    report.newestReadableVersion === null ? "no version opens" : "",
    report.pendingWidenReplay === null ? "" : "a killed widen's replay is pending",
    ...importDamage(report),
  ];
  return parts.filter(Boolean).join(", ");
}

function printReport(io: Io, report: CheckReport): void {
  const readable = report.versions.filter((v) => v.readable).length;
  println(io.stdout, `${report.uri}: ${report.ok ? "ok" : "DAMAGED"}`);
  println(
    io.stdout,
    `versions: ${readable} of ${report.versions.length} open; latest ${report.latestVersion ?? "?"}, newest readable ${report.newestReadableVersion ?? "none"}`,
  );
  for (const v of report.versions.filter((x) => !x.readable))
    println(io.stdout, `  version ${v.version} does not open: ${v.error}`);
  for (const note of report.notes) println(io.stdout, `  note: ${note}`);
  if (report.checkedVersion !== null) {
    println(
      io.stdout,
      `rows of version ${report.checkedVersion}: ${report.rows} in ${report.fragments.length} fragment${report.fragments.length === 1 ? "" : "s"}, ${report.unreadableRows.length} unreadable`,
    );
  }
  for (const row of report.unreadableRows)
    println(io.stdout, `  row id ${row.rowId} (fragment ${row.fragment}, offset ${row.offset}): ${row.error}`);
  printImports(io, report);
  const repair = report.repair;
  if (repair === null) return;
  printImportRepair(io, repair.imports);
  for (const file of repair.quarantined) println(io.stdout, `repair: moved a manifest that does not open to ${file}`);
  if (repair.deletedRows.length > 0) {
    println(
      io.stdout,
      `repair: deleted ${repair.deletedRows.length} unreadable row${repair.deletedRows.length === 1 ? "" : "s"} (row ids ${repair.deletedRows.map((r) => r.rowId).join(", ")})`,
    );
  }
  const replayed = repair.widenReplay;
  if (replayed !== null) {
    println(
      io.stdout,
      `repair: completed the widen of "${replayed.variable}": ${replayed.overwrite === replayed.read + 1 ? "nothing to replay" : `versions ${replayed.read + 1}..${replayed.overwrite - 1} replayed`} on its rewrite (version ${replayed.overwrite})`,
    );
  }
  if (repair.imports.droppedTable) return;
  println(
    io.stdout,
    `repair: the table is at version ${repair.version}; a new check ${repair.ok ? "finds nothing" : "STILL FINDS DAMAGE"}`,
  );
}
