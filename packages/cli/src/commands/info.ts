/** `lance-nd info`: what a table is: branch, tags, format, rows, versions, size, stats, column defaults. */
import type { Command } from "commander";
import { layouts, scan, type LayoutInfo, type NdTable } from "lance-nd";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { diskBytes, formatBytes } from "../output/disk-size.js";
import { isStorageAttr } from "../output/user-attrs.js";
import { failing } from "../report.js";
import { settingsOf } from "./defaults.js";
import { BRANCH_HELP, openTable, parseVersionOrTag, type TableFlags, VERSION_HELP } from "../args/open-table.js";
import { storageOptionFlag } from "../args/storage-options.js";

export function registerInfo(program: Command, io: Io): void {
  program
    .command("info")
    .description(
      "show a table's branch, tags, format version, rows, versions, fragments, size on disk, stats and column defaults",
    )
    .argument("<table>", "the table")
    .option("--version <n|tag>", VERSION_HELP, parseVersionOrTag)
    .option("--branch <name>", BRANCH_HELP)
    .addOption(storageOptionFlag())
    .option("--json", "print as JSON")
    .option("--all-attrs", "list the storage attributes too (_DimOrder, _Format, ...)")
    .addHelpText("after", "\nExample:\n  lance-nd info lance-nd-demo/ocean.lance")
    .action((uri: string, options: { json?: boolean; allAttrs?: boolean } & TableFlags) =>
      failing(`cannot read ${uri}`, async () => {
        const table = await openTable(uri, options, io);
        const version = await table.version();
        const all = await table.versions();
        const current = all.find((v) => v.version === version);
        const fragments = current?.metadata.total_fragments;
        const bytes = await diskBytes(uri);
        const layout = table.layout;
        const tagList = await table.tags();
        const info = {
          table: uri,
          branch: table.branch ?? "main",
          tags: tagList,
          formatVersion: layout.formatVersion,
          version,
          versions: all.length,
          rows: await table.countRows(),
          fragments: fragments === undefined ? null : Number(fragments),
          bytes: bytes ?? null,
          variables: layout.arrays.size,
          globalAttrs: (layout.globalAttrs === null
            ? []
            : layout.globalAttrs.type.children.map((f: { name: string }) => f.name)
          ).filter((name: string) => options.allAttrs || !isStorageAttr(name)),
          stats: layout.stats,
          statsVariables: [...layout.statsColumns.keys()],
          columnDefaults: settingsOf(layout.columnDefaults),
          layouts: await datasetLayouts(table),
        };
        if (options.json) {
          printJson(io.stdout, info);
          return;
        }
        const lines: [string, string][] = [
          ["table", uri],
          ["branch", info.branch],
          ["tags", tagList.map((t) => `${t.name}=${t.version}`).join(", ") || "none"],
          ["format", `lance-nd v${info.formatVersion}`],
          ["version", `${version} (${info.versions} version${info.versions === 1 ? "" : "s"} kept)`],
          ["rows", String(info.rows)],
          ["fragments", info.fragments === null ? "unknown" : String(info.fragments)],
          ["size", bytes === undefined ? "unknown (not a local table)" : formatBytes(bytes)],
          ["variables", `${info.variables} (lance-nd vars ${uri})`],
          ["global attrs", info.globalAttrs.join(", ") || "none"],
          ["stats", info.stats ? `on (${info.statsVariables.length} variables)` : "off"],
          [
            "col defaults",
            Object.entries(info.columnDefaults)
              .map(([k, v]) => `${k}=${v}`)
              .join(", ") || "none (Lance's own)",
          ],
        ];
        for (const [id, list] of Object.entries(info.layouts)) lines.push([`layouts`, layoutsLine(id, list)]);
        for (const [key, value] of lines) println(io.stdout, `${key.padEnd(13)}${value}`);
      }),
    );
}

/** The layouts of each dataset that has some (lance-nd README "Layouts"), by dataset id. */
async function datasetLayouts(table: NdTable): Promise<Record<string, LayoutInfo[]>> {
  const field = table.layout.globalAttrs;
  if (field === null || !field.type.children.some((f: { name: string }) => f.name === "layout_of")) return {};
  const ids = new Set<string>();
  for await (const row of scan(table).project([])) {
    const of = row.globalAttr("layout_of");
    if (typeof of === "string") ids.add(of);
  }
  const out: Record<string, LayoutInfo[]> = {};
  for (const id of [...ids].sort()) out[id] = await layouts(table, id);
  return out;
}

/** `era5.nc: source time=1,lat=all,lon=all 120 rows 119 MiB; series time=all,lat=20,lon=20 684 rows 119 MiB (stale: ...)`. */
function layoutsLine(id: string, list: readonly LayoutInfo[]): string {
  const one = (l: LayoutInfo) =>
    `${l.name} ${l.chunk} ${l.rows} rows${l.valueBytes === null ? "" : ` ${formatBytes(l.valueBytes)} of values`}${l.stale === null ? "" : ` (stale: ${l.stale})`}`;
  return `${id}: ${list.map(one).join("; ")}`;
}
