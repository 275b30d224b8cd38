/** `lance-nd demo`: write, filter, read back and plot a small ocean dataset, in a few seconds. */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { assemble, chunk } from "@lance-nd/nd-arrow";
import { scan, stat, write } from "lance-nd";
import { oceanDemo } from "../demo-data.js";
import type { Io } from "../io.js";
import { printJson, println } from "../io.js";
import { diskBytes, formatBytes } from "../output/disk-size.js";
import { plotVariable } from "../plot/plot-variable.js";
import { failing } from "../report.js";

/** How the demo cuts the 12 x 90 x 180 grid into rows: 3 time blocks x 3 latitude bands. */
const CHUNKS = { time: 4, lat: 30 } as const;
/** The demo's filter: rows whose warmest water is above this (degC), read through the stats. */
const WARM = 28;

export function registerDemo(program: Command, io: Io): void {
  program
    .command("demo")
    .description("write a demo table (monthly sea surface temperature), query it and plot a slice")
    .option("--dir <dir>", "where the table and the PNG go", "lance-nd-demo")
    .option("--json", "print what happened as JSON")
    .addHelpText(
      "after",
      "\nExample:\n  lance-nd demo            # writes ./lance-nd-demo/ocean.lance and ./lance-nd-demo/sst.png",
    )
    .action((options: { dir: string; json?: boolean }) =>
      failing(`demo failed in ${options.dir}`, () => demo(io, options)),
    );
}

async function demo(io: Io, options: { dir: string; json?: boolean }): Promise<void> {
  const started = performance.now();
  await mkdir(options.dir, { recursive: true });
  const uri = join(options.dir, "ocean.lance");
  const batch = oceanDemo();
  const sst = batch.get("sst")!;
  const rows = chunk(batch, CHUNKS);
  const table = await write(uri, rows, {
    mode: "overwrite",
    stats: true,
    columnDefaults: { compression: { codec: "zstd", level: 3 } },
  });
  const version = await table.version();
  const versionCount = (await table.versions()).length;
  const bytes = await diskBytes(uri);

  // Read one variable of the rows whose stats say they hold warm water.
  const warm = stat("sst").max.gt(WARM);
  const matched = await scan(table).project(["sst"]).filterExpr(warm).toArray();
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const row of matched) {
    for (const v of row.get("sst")!.toArray() as Float32Array) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }

  // The first time block: its latitude bands assembled back into one grid, then plotted.
  const firstMonths = stat("time").min.lt(31);
  const block = assemble(await scan(table).filterExpr(firstMonths).toArray());
  const png = await plotVariable(block, "sst", new Map([["time", 0]]), join(options.dir, "sst.png"));
  const seconds = (performance.now() - started) / 1000;

  const summary = {
    table: uri,
    dataset: { grid: batch.grid(), variables: batch.names(), rawBytes: sst.size * 4 },
    write: {
      rows: rows.length,
      chunks: CHUNKS,
      version,
      versions: versionCount,
      bytes: bytes ?? null,
      compression: "zstd:3",
      stats: true,
    },
    query: {
      project: ["sst"],
      filter: String(warm),
      matched: matched.length,
      of: rows.length,
      min,
      max,
      units: sst.attr("units"),
    },
    plot: { path: png.path, title: png.title, rows: png.rows, cols: png.cols },
    seconds,
  };
  if (options.json) {
    printJson(io.stdout, summary);
    return;
  }
  const grid = batch
    .grid()
    .map((d) => `${d.name}=${d.size}`)
    .join(", ");
  const lines = [
    `dataset   oceanDemo: sst(${grid}) float32 in degC, with time/lat/lon coordinates and CF attributes`,
    `write     ${uri}: ${rows.length} rows (chunks of ${Object.entries(CHUNKS)
      .map(([d, n]) => `${d}=${n}`)
      .join(", ")}), version ${version} (${versionCount} version${versionCount === 1 ? "" : "s"} kept), ` +
      `${bytes === undefined ? "" : `${formatBytes(bytes)} on disk for ${formatBytes(summary.dataset.rawBytes)} of sst, `}zstd:3, stats on`,
    `query     project [sst] where ${String(warm)}: ${matched.length} of ${rows.length} rows matched, sst from ${min.toFixed(2)} to ${max.toFixed(2)} degC`,
    `plot      ${png.title} (${png.rows} x ${png.cols}, assembled from the first time block) -> ${png.path}`,
    `done in ${seconds.toFixed(1)} s. Next: lance-nd info ${uri}  |  lance-nd scan ${uri} --limit 3  |  lance-nd vars ${uri}`,
  ];
  for (const line of lines) println(io.stdout, line);
}
