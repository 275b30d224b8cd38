/**
 * What `lance-nd check` says about imports that did not end: leftover
 * import marks with their ids and rows, stale writer locks, and what
 * `--repair` did to them (packages/lance-nd README, "Guarantees").
 */
import type { CheckReport, ImportRepair, LeftoverImport } from "lance-nd";
import type { Io } from "../io.js";
import { println } from "../io.js";

/** The import damage of a report, as phrases. */
export function importDamage(report: CheckReport): string[] {
  const imports = report.leftoverImports.length;
  const locks = report.staleLocks.length;
  return [
    imports === 0 ? "" : `${imports} import${imports === 1 ? "" : "s"} did not end`,
    locks === 0 ? "" : `${locks} stale writer lock${locks === 1 ? "" : "s"}`,
  ];
}

/** One line per leftover import and stale lock. */
export function printImports(io: Io, report: CheckReport): void {
  for (const leftover of report.leftoverImports) println(io.stdout, `  ${describe(leftover)}`);
  for (const lock of report.staleLocks) {
    const id = lock.id === null ? "" : ` of id "${lock.id}"`;
    println(io.stdout, `  writer lock ${lock.tag}${id} is held by no running import`);
  }
}

/** One line per import undone and lock broken by a repair. */
export function printImportRepair(io: Io, repair: ImportRepair): void {
  if (repair.droppedTable) {
    println(io.stdout, `repair: removed the table the killed create made (import ${repair.undone[0]!.uuid})`);
    return;
  }
  for (const leftover of repair.undone) {
    const undo =
      leftover.mode === null
        ? "removed its unreadable mark"
        : leftover.mode === "overwrite"
          ? `restored version ${leftover.version}`
          : "removed its rows";
    println(io.stdout, `repair: undid the import ${leftover.uuid}: ${undo}`);
  }
  for (const leftover of repair.completed)
    println(
      io.stdout,
      `repair: the import ${leftover.uuid} had completed its replace: removed its mark, kept its rows`,
    );
  for (const lock of repair.brokenLocks) println(io.stdout, `repair: broke the stale writer lock ${lock.tag}`);
}

function describe(leftover: LeftoverImport): string {
  if (leftover.mode === null) return `import ${leftover.uuid} did not end; its mark cannot be read`;
  const ids = leftover.ids.map((id) => `"${id}"`).join(", ");
  const branch = leftover.branch === null ? "" : ` on branch ${leftover.branch}`;
  return `import ${leftover.uuid} (--mode ${leftover.mode}${branch}, process ${leftover.process}) did not end: ${leftover.rows} row${leftover.rows === 1 ? "" : "s"} of id ${ids} after version ${leftover.version}`;
}
