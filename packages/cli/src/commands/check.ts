/**
 * `lance-nd check <table> [--repair] [--deep] [--json]`: reads every
 * manifest, and every file, row and key index of the newest readable
 * version, and reports what is damaged and what could not be read for
 * another reason; `--repair` removes only what is proven damaged, listing
 * each; `--deep` also compares every row's values with its stats and
 * every current layout with its dataset (packages/lance-nd README,
 * "check", "Layouts" and "Widen").
 */
import type { Command } from "commander";
import { check, type CheckReport } from "lance-nd";
import { type StorageOptionFlags, storageOptionFlag, storageOptionsOf } from "../args/storage-options.js";
import { CliError } from "../errors.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { failing } from "../report.js";
import { importDamage, printImportRepair, printImports } from "./check-imports.js";

/** The options of `check`. */
interface CheckOptions extends StorageOptionFlags {
  repair?: boolean;
  deep?: boolean;
  json?: boolean;
  branch?: string;
}

export function registerCheck(program: Command, io: Io): void {
  program
    .command("check")
    .description(
      "read every version's manifest and every file, row and key index of the newest readable version; report what is damaged (and with --repair remove only that)",
    )
    .argument("<table>", "the table")
    .option(
      "--repair",
      "move manifests that do not open into <table>/_lance_nd_quarantine, drop fragments whose deletion file is lost, delete unreadable rows, rebuild damaged key indexes, complete a killed widen's replay and undo imports that did not end, listing each; files that cannot be opened for another reason (permission, I/O) are never removed",
    )
    .option(
      "--deep",
      "also compute the stats of every row with stats again and report rows whose values contradict them, and compare every current layout (rechunk) with its dataset, value by value",
    )
    .option("--branch <name>", "refused: check reads the manifests of main only (a branch's are in another folder)")
    .addOption(storageOptionFlag())
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      "\nExit code 1 when damage remains or a file could not be read (after --repair: when the repair did not leave a whole table)." +
        "\n\nExamples:\n  lance-nd check data/ocean.lance\n  lance-nd check data/ocean.lance --deep\n  lance-nd check data/ocean.lance --repair --json",
    )
    .action((uri: string, options: CheckOptions) =>
      failing(`cannot check ${uri}`, async () => {
        if (options.branch !== undefined) {
          throw new CliError(
            "InvalidArgument",
            `--branch ${options.branch}: check reads the version manifests of main only; check the table without --branch`,
          );
        }
        const report = await check(uri, {
          repair: options.repair === true,
          deep: options.deep === true,
          ...storageOptionsOf(options),
        });
        if (options.json) printJson(io.stdout, report);
        else printReport(io, report);
        const whole = report.ok || report.repair?.ok === true;
        if (!whole) {
          if (onlyInaccessible(report)) {
            throw new CliError(
              "InvalidFile",
              `${uri} could not be checked whole: ${damage(report)}; nothing was removed for them (${inaccessibleHint(report)})`,
              { path: uri },
            );
          }
          const hint = options.repair
            ? "the repair did not leave a whole table"
            : onlyValues(report)
              ? valuesHint(uri, report)
              : `run lance-nd check ${uri} --repair`;
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
    counted(report.damagedFiles.length, "damaged file"),
    counted(report.unreadableRows.length, "unreadable row"),
    counted(report.damagedIndexes.length, "damaged key index", "damaged key indexes"),
    counted(report.statsMismatches?.length ?? 0, "row contradicting its stats", "rows contradicting their stats"),
    counted(
      report.layoutMismatches?.length ?? 0,
      "layout region differing from its dataset",
      "layout regions differing from their dataset",
    ),
    counted(
      report.inaccessibleFiles.length,
      "file that could not be read (not damage)",
      "files that could not be read (not damage)",
    ),
    report.newestReadableVersion === null && !unreached(report) ? "no version opens" : "",
    report.pendingWidenReplay === null ? "" : "a killed widen's replay is pending",
    ...importDamage(report),
  ];
  return parts.filter(Boolean).join(", ");
}

/** True when the only finding is files that could not be read for a reason that is not damage. */
function onlyInaccessible(report: CheckReport): boolean {
  if (unreached(report)) return true;
  return report.inaccessibleFiles.length > 0 && damage({ ...report, inaccessibleFiles: [] }) === "";
}

/** True when the store refused or failed to give a manifest: nothing of the table was checked. */
function unreached(report: CheckReport): boolean {
  return report.inaccessibleFiles.some((f) => f.kind === "manifest");
}

/** What to do about files that could not be read: make them readable, or wait for the store. */
function inaccessibleHint(report: CheckReport): string {
  const refused = report.inaccessibleFiles.some((f) => f.failure === "inaccessible");
  const transient = report.inaccessibleFiles.some((f) => f.failure === "transient");
  return [
    refused ? "make them readable to this user" : "",
    transient ? "the store failed for a moment (5xx, throttling or a dropped connection): check again later" : "",
  ]
    .filter(Boolean)
    .join("; ")
    .concat(refused && !transient ? " and check again" : "");
}

/**
 * True when the only damage is values: rows that contradict their stats or
 * layouts that differ from their dataset, which a repair leaves as they are.
 */
function onlyValues(report: CheckReport): boolean {
  return (
    (report.statsMismatches?.length ?? 0) + (report.layoutMismatches?.length ?? 0) > 0 &&
    damage({ ...report, inaccessibleFiles: [], statsMismatches: null, layoutMismatches: null }) === ""
  );
}

/** What to do about values a repair leaves: replace rows from a good copy; rewrite a layout from its dataset. */
function valuesHint(uri: string, report: CheckReport): string {
  const layout = report.layoutMismatches?.[0];
  return [
    (report.statsMismatches?.length ?? 0) === 0
      ? ""
      : "--repair removes no row for its values: replace the rows from a good copy (replaceRows)",
    layout === undefined
      ? ""
      : `when the dataset's values are the right ones, lance-nd rechunk ${uri} --id ${layout.id} --name ${layout.layout} --refresh rewrites the layout`,
  ]
    .filter(Boolean)
    .join("; ");
}

/** `n thing(s)`, or "" for none. */
function counted(n: number, one: string, many = `${one}s`): string {
  return n === 0 ? "" : `${n} ${n === 1 ? one : many}`;
}

/** `data file of fragment 2`, `deletion file of fragment 2`, `file of key index __global_attrs__.id_idx`. */
function fileOwner(file: Pick<CheckReport["damagedFiles"][number], "kind" | "fragment" | "index">): string {
  if (file.kind === "manifest" || file.kind === "tag") return file.kind;
  return file.kind === "index" ? `file of key index ${file.index}` : `${file.kind} file of fragment ${file.fragment}`;
}

function printReport(io: Io, report: CheckReport): void {
  const readable = report.versions.filter((v) => v.readable).length;
  println(io.stdout, `${report.uri}: ${report.ok ? "ok" : onlyInaccessible(report) ? "NOT CHECKED WHOLE" : "DAMAGED"}`);
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
  for (const file of report.damagedFiles)
    println(io.stdout, `  damaged ${fileOwner(file)}: ${file.path}: ${file.problem} (${file.detail})`);
  for (const file of report.inaccessibleFiles)
    println(
      io.stdout,
      `  could not read ${fileOwner(file)} (not damage, nothing removed): ${file.path}: ${file.cause}`,
    );
  for (const row of report.unreadableRows)
    println(io.stdout, `  row id ${row.rowId} (fragment ${row.fragment}, offset ${row.offset}): ${row.error}`);
  for (const index of report.damagedIndexes)
    println(io.stdout, `  key index ${index.name} on ${index.column} is damaged: ${index.error}`);
  if (report.statsMismatches !== null) {
    println(
      io.stdout,
      `deep: ${report.statsMismatches.length} row${report.statsMismatches.length === 1 ? "" : "s"} whose values contradict their stats`,
    );
    for (const m of report.statsMismatches)
      println(
        io.stdout,
        `  row id ${m.rowId}, ${m.variable}: values ${m.values.min}..${m.values.max}, stats ${m.stored.min}..${m.stored.max}`,
      );
  }
  if ((report.layoutMismatches?.length ?? 0) > 0) {
    const n = report.layoutMismatches!.length;
    println(io.stdout, `deep: ${n} layout region${n === 1 ? "" : "s"} whose values differ from the dataset's`);
    for (const m of report.layoutMismatches!) {
      const region = Object.entries(m.region).map(([dim, [start, stop]]) => `${dim} ${start}..${stop}`);
      println(io.stdout, `  layout ${m.layout} of ${m.id}, ${m.variable}, ${region.join(", ")}: ${m.problem}`);
    }
  }
  printImports(io, report);
  const repair = report.repair;
  if (repair === null) return;
  printImportRepair(io, repair.imports);
  for (const file of repair.quarantined) println(io.stdout, `repair: moved a manifest that does not open to ${file}`);
  for (const f of repair.droppedFragments) {
    println(
      io.stdout,
      `repair: removed fragment ${f.fragment} (${f.rows} row${f.rows === 1 ? "" : "s"}): its deletion file ${f.deletionFile} was lost, so which of its rows were deleted is unknown; its data stays in ${f.dataFiles.join(", ")}${f.quarantined === null ? "" : `, the damaged deletion file in ${f.quarantined}`}`,
    );
  }
  for (const index of repair.rebuiltIndexes) println(io.stdout, `repair: rebuilt key index on ${index.column}`);
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
