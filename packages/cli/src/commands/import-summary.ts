/** What `lance-nd import` reports when it is done: one line, or one JSON object with `--json`. */
import type { CfMode } from "lance-nd/internal";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { formatBytes } from "../output/disk-size.js";

/** The `--json` summary of an import. */
export interface ImportSummary {
  readonly table: string;
  /** The branch written (`main` unless `--branch`). */
  readonly branch: string;
  /** The files (or stores) imported. */
  readonly files: number;
  readonly rows: number;
  readonly variables: readonly string[];
  readonly cf: CfMode;
  readonly version: number;
  readonly replacedRows: number;
  readonly totalRows: number;
  /** The uncompressed bytes of the variables imported. */
  readonly bytesRead: number;
  /** The bytes received from the network (0 for local inputs). */
  readonly bytesFetched: number;
  readonly seconds: number;
}

/**
 * Prints `summary` on stdout: as JSON with `json`, else one line, which
 * names the bytes fetched when an input was at a URL (`remote`) and the
 * rows replaced for `--mode replace`.
 */
export function printImportSummary(
  io: Io,
  summary: ImportSummary,
  how: { json?: boolean; remote: boolean; replace: boolean },
): void {
  if (how.json) {
    printJson(io.stdout, summary);
    return;
  }
  const { files, rows, replacedRows: replaced } = summary;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const fetched = how.remote ? `, ${formatBytes(summary.bytesFetched)} fetched` : "";
  const branch = summary.branch === "main" ? "" : ` (branch ${summary.branch})`;
  const swapped = how.replace ? `, ${plural(replaced, "old row")} replaced` : "";
  println(
    io.stdout,
    `imported ${plural(files, "file")} (${formatBytes(summary.bytesRead)}${fetched}, ${summary.variables.length} variables) as ${plural(rows, "row")} into ${summary.table}${branch} ` +
      `in ${summary.seconds.toFixed(1)} s: version ${summary.version}, ${summary.totalRows} rows in the table${swapped}`,
  );
}
