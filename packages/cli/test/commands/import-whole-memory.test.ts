/**
 * The memory of an import from a server that ignores `Range` (README
 * "Memory bounds"; CLI README "Stores elsewhere"): the whole classic
 * netCDF file it sends, 420 MiB made as it is sent, goes to a temporary
 * file as it arrives, so the importer's peak RSS (a preload reports it at
 * exit, as in import-memory.test.ts) stays far below the file's size; the
 * values imported are those the server makes; `bytesFetched` is the file;
 * the temporary file is gone afterwards.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GeneratedNetcdfServer,
  bigValue,
  smallValue,
  startGeneratedNetcdfServer,
} from "./generated-netcdf-server.js";
import { type CliRun, cli, cliAsync, ensureBuilt, tempDir } from "./harness.js";

// 1,100 x 100,000 floats: 440 MB (420 MiB) of big, after a header and 64 ints of small.
const SHAPE = { small: 64, rows: 1100, cols: 100_000 };
const PEAK_BOUND_MIB = 300;

let server: GeneratedNetcdfServer;
let dir: string;
let preload: string;
beforeAll(async () => {
  ensureBuilt();
  dir = tempDir();
  preload = join(dir, "peak.mjs");
  writeFileSync(
    preload,
    `process.on("exit", () => process.stderr.write("[peak] " + JSON.stringify(process.resourceUsage().maxRSS / 1024) + "\\n"));\n`,
  );
  server = await startGeneratedNetcdfServer(SHAPE);
});
afterAll(() => server?.stop());

/** `lance-nd import` in a process of its own (the executable and the importer it runs), and each one's peak RSS in MiB. */
async function importMeasured(args: readonly string[]): Promise<CliRun & { peaksMiB: number[] }> {
  const run = await cliAsync(["import", ...args], undefined, undefined, ["--import", preload]);
  const lines = run.stderr.split("\n");
  const peaksMiB = lines.filter((l) => l.startsWith("[peak] ")).map((l) => Number(l.slice(7)));
  return { ...run, stderr: lines.filter((l) => !l.startsWith("[peak] ")).join("\n"), peaksMiB };
}

/** The temporary files of netCDF files at URLs in the system's temporary folder. */
const kept = () => readdirSync(tmpdir()).filter((f) => /^lance-nd-[0-9a-f-]{36}\.nc$/.test(f));

/** The values of `variable` in the table's one row. */
function values(table: string, variable: string): number[] {
  const run = cli(["scan", table, "--json", "--project", variable]);
  expect(run.code, run.stderr).toBe(0);
  const [row] = JSON.parse(run.stdout) as { arrays: Record<string, { values: number[] }> }[];
  return row!.arrays[variable]!.values;
}

describe("lance-nd import of a 420 MiB netCDF file from a server that ignores Range", () => {
  it(`--project small: the importer peaks under ${PEAK_BOUND_MIB} MiB RSS, small is the server's, the temporary file is gone`, async () => {
    const before = kept();
    const table = join(dir, "small.lance");
    const run = await importMeasured([server.url, table, "--project", "small", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { bytesFetched: number }).bytesFetched).toBe(server.size);
    expect(run.peaksMiB).toHaveLength(2);
    expect(Math.max(...run.peaksMiB)).toBeLessThan(PEAK_BOUND_MIB);
    expect(server.size / 2 ** 20).toBeGreaterThan(400);
    expect(values(table, "small")).toEqual(Array.from({ length: SHAPE.small }, (_, k) => smallValue(k)));
    expect(kept()).toEqual(before);
  });

  it("--isel of big's last corner: the values the server made, from the one whole answer", async () => {
    const before = kept();
    const table = join(dir, "corner.lance");
    const run = await importMeasured([
      server.url,
      table,
      "--project",
      "big",
      "--isel",
      `row=${SHAPE.rows - 2}:${SHAPE.rows},col=${SHAPE.cols - 3}:${SHAPE.cols}`,
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(Math.max(...run.peaksMiB)).toBeLessThan(PEAK_BOUND_MIB);
    const corner = [SHAPE.rows - 2, SHAPE.rows - 1].flatMap((row) =>
      [3, 2, 1].map((back) => bigValue(row, SHAPE.cols - back)),
    );
    expect(values(table, "big")).toEqual(corner);
    expect(kept()).toEqual(before);
  });
});
