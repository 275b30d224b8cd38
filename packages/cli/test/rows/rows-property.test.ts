/**
 * Seeded property: whatever rows an import cuts a dataset into, every read
 * and export of them is xarray's view of the source. Each case is a random
 * dataset that xarray writes (rows_oracle.py `random`: 1-4 dims, one of
 * them zero-length in some cases, the first a record dim in netCDF,
 * variables lacking some dims, coordinates on some dims, a scalar in some
 * cases; netCDF-4, netCDF classic or Zarr v2), imported with a random
 * `--chunk` or, without one, a row budget of 1 KiB (`--row-size`), then: `export` to netCDF-4, netCDF classic and Zarr v2 is
 * identical to the source as xarray opens it; Zarr v3 (which Debian's zarr
 * 2.13 cannot read) holds what Zarr v2 holds, read with zarrita; `serve`
 * read by xarray is the source; `scan --isel`, `plot --json` and the
 * library's `dataset().read()` hold xarray's values; a `--where` selecting
 * a run of rows along one dim exports xarray's `isel` of the run.
 *
 * 20 cases; `LANCE_ND_ROWS_CASES=<n>` runs n (the seeds 1..n).
 */
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { dataset, open, scan } from "lance-nd";
import { beforeAll, describe, expect, it } from "vitest";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { startServe } from "../serve/served.js";

const ORACLE = join(import.meta.dirname, "rows_oracle.py");
const CASES = Number(process.env.LANCE_ND_ROWS_CASES ?? 20);
const skip = pythonSkipReason(
  "rows property xarray oracle",
  ["numpy", "pandas", "xarray", "netCDF4", "zarr", "fsspec", "aiohttp"],
  "apt-get install python3-xarray python3-netcdf4 python3-zarr python3-fsspec python3-aiohttp",
);

/** What rows_oracle.py `random` made. */
interface RandomCase {
  path: string;
  kind: "netcdf4" | "classic" | "zarr";
  dims: Record<string, number>;
  chunk: Record<string, number>;
}

/** A variable as rows_oracle.py `values` dumps it. */
interface Values {
  dims: string[];
  shape: number[];
  values: (number | null)[];
}

type Isel = Record<string, number | [number, number]>;

function oracle<T>(...args: string[]): T {
  return JSON.parse(runPython([ORACLE, ...args])) as T;
}

/**
 * The arguments of the import of a case: the one place that says how a
 * case's rows are cut.
 */
function importArgs(source: string, table: string, chunk: Readonly<Record<string, number>>): string[] {
  const sizes = Object.entries(chunk).map(([dim, size]) => `${dim}=${size}`);
  // Without --chunk, a row budget of 1 KiB (the least --row-size takes) makes the planner cut every dataset but the smallest.
  const cut = sizes.length === 0 ? ["--row-size", "1KiB"] : ["--chunk", sizes.join(",")];
  return ["import", source, table, "--id", "case", ...cut];
}

/** The information line an import prints when it cuts a file by its row budget: the normal path, not a complaint. */
const CUT_NOTICE = /^lance-nd: .* is more than a row holds .*\n/gm;

/** Runs the CLI, failing the case with its stderr unless it exits 0 quietly (but for the cut notice); its stdout. */
function ok(what: string, args: readonly string[]): string {
  const run = cli(args);
  expect(`${run.code} ${run.stderr.replace(CUT_NOTICE, "")}`, `${what}: lance-nd ${args.join(" ")}`).toBe("0 ");
  return run.stdout;
}

/** A number as the values dump holds it: NaN and null as null. */
function plain(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isNaN(n) ? null : n;
}

/** The grid of a scanned row as NdRecordBatch orders it: the widest array's dims, then the rest in order. */
function gridOf(arrays: Record<string, { dims: { name: string }[] }>): string[] {
  const all = Object.values(arrays);
  const widest = all.reduce<{ dims: { name: string }[] } | undefined>(
    (w, a) => (w === undefined || a.dims.length > w.dims.length ? a : w),
    undefined,
  );
  const order = new Set(widest?.dims.map((d) => d.name) ?? []);
  for (const a of all) for (const d of a.dims) order.add(d.name);
  return [...order];
}

/** `scan --isel --json` blocks placed into each variable of the selection (values in row-major order). */
function placedBlocks(stdout: string, expected: Record<string, Values>): Record<string, (number | null)[]> {
  const rows = JSON.parse(stdout) as {
    globalAttrs: { chunk_offset?: number[] };
    arrays: Record<string, { dims: { name: string; size: number }[]; values: unknown[] }>;
  }[];
  const out: Record<string, (number | null)[]> = {};
  for (const row of rows) {
    const grid = gridOf(row.arrays);
    const offset = row.globalAttrs.chunk_offset ?? grid.map(() => 0);
    for (const [name, array] of Object.entries(row.arrays)) {
      const want = expected[name];
      if (want === undefined) continue;
      const cells = want.shape.reduce((n, s) => n * s, 1);
      out[name] ??= new Array<number | null>(cells).fill(Number.NaN as unknown as null);
      const sizes = array.dims.map((d) => d.size);
      const starts = array.dims.map((d) => offset[grid.indexOf(d.name)]!);
      array.values.forEach((value, flat) => {
        let target = 0;
        for (let k = 0, rest = flat; k < sizes.length; k++) {
          const inner = sizes.slice(k + 1).reduce((n, s) => n * s, 1);
          target = target * want.shape[k]! + starts[k]! + Math.floor(rest / inner);
          rest %= inner;
        }
        out[name]![target] = plain(value);
      });
    }
  }
  return out;
}

describe.skipIf(skip !== undefined)(
  `${CASES} seeded datasets cut into random rows read back as xarray sees them`,
  () => {
    let dir: string;
    beforeAll(() => {
      ensureBuilt();
      dir = tempDir();
    });

    for (let seed = 1; seed <= CASES; seed++) {
      it(`seed ${seed}`, async () => {
        const folder = join(dir, `case-${seed}`);
        mkdirSync(folder);
        const made = oracle<RandomCase>("random", String(seed), folder);
        const what = `seed ${seed} (${made.kind} ${JSON.stringify(made.dims)}, --chunk ${JSON.stringify(made.chunk)})`;
        const table = join(folder, "t.lance");
        ok(what, importArgs(made.path, table, made.chunk));
        const comparisons: [string, string, Isel][] = [];

        // A classic file's one zero-length dim is its record dim: zero-length dims after the first do not fit it.
        const classic = Object.values(made.dims)
          .slice(1)
          .every((size) => size > 0);
        for (const format of classic ? ["netcdf4", "classic"] : ["netcdf4"]) {
          const out = join(folder, `${format}.nc`);
          ok(what, ["export", table, out, "--format", format]);
          comparisons.push([made.path, out, {}]);
        }
        for (const version of ["2", "3"]) {
          ok(what, ["export", table, join(folder, `v${version}.zarr`), "--format", "zarr", "--zarr-version", version]);
        }
        comparisons.push([made.path, join(folder, "v2.zarr"), {}]);
        await expectSameZarr(what, join(folder, "v2.zarr"), join(folder, "v3.zarr"));

        // A --where of a run of rows along the first dim the rows are cut along.
        const run = await rowRun(table);
        if (run !== undefined) {
          const out = join(folder, "run.nc");
          ok(what, ["export", table, out, "--where", run.where]);
          comparisons.push([made.path, out, { [run.dim]: [run.start, run.stop] }]);
        }

        const served = await startServe(table);
        try {
          comparisons.push([made.path, served.datasets[0]!.url, {}]);
          const results = oracle<{ identical: boolean; detail: string }[]>("compare-all", JSON.stringify(comparisons));
          for (const [k, result] of results.entries())
            expect(result.identical, `${what}: ${comparisons[k]![1]}\n${result.detail}`).toBe(true);
        } finally {
          await served.stop();
        }

        // The library reads the whole dataset as xarray does.
        const whole = oracle<Record<string, Values>>("values", made.path, "{}");
        const read = await (await dataset(await open(table))).read();
        for (const [name, want] of Object.entries(whole)) {
          const array = read.get(name);
          expect(array?.shape, `${what}: dataset().read() ${name}`).toEqual(want.shape);
          expect(Array.from(array!.values, plain), `${what}: dataset().read() ${name}`).toEqual(want.values);
        }

        // scan --isel: the first dim's first cell, when it has one.
        const [first, size] = Object.entries(made.dims)[0]!;
        if (size > 0) {
          const isel: Isel = { [first]: 0 };
          const want = oracle<Record<string, Values>>("values", made.path, JSON.stringify(isel));
          const scanned = placedBlocks(ok(what, ["scan", table, "--isel", `${first}=0`, "--json"]), want);
          for (const [name, expected] of Object.entries(want)) {
            if (expected.values.length === 0) continue;
            expect(scanned[name], `${what}: scan --isel ${first}=0 ${name}`).toEqual(expected.values);
          }
        }

        // plot --json of v0 on its last two dims (when both have more than one cell), the others at index 0.
        const v0 = whole.v0!;
        const picks = v0.dims.slice(0, -2);
        if (v0.dims.length >= 2 && v0.shape.every((s) => s > 0) && v0.shape.slice(-2).every((s) => s > 1)) {
          const isel: Isel = Object.fromEntries(picks.map((d) => [d, 0]));
          const slice = oracle<Record<string, Values>>("values", made.path, JSON.stringify(isel)).v0!;
          const finite = slice.values.filter((v): v is number => v !== null);
          const args = [
            "plot",
            table,
            "v0",
            "-o",
            join(folder, "v0.png"),
            "--json",
            ...picks.flatMap((d) => ["--isel", `${d}=0`]),
          ];
          const plot = JSON.parse(ok(what, args)) as { min: number | null; max: number | null };
          expect([plot.min, plot.max], `${what}: plot`).toEqual(
            finite.length === 0 ? [null, null] : [Math.min(...finite), Math.max(...finite)],
          );
        }
      });
    }
  },
);

/** What zarrita's `get` returns (a chunk, or a scalar for a 0-d array) as plain values in row-major order. */
function flat(got: unknown): (number | null)[] {
  const data = (got as { data?: ArrayLike<unknown> }).data;
  return data === undefined ? [plain(got)] : Array.from(data, plain);
}

/** Expects the Zarr v3 export to hold what the v2 export holds, array by array, read with zarrita. */
async function expectSameZarr(what: string, v2: string, v3: string): Promise<void> {
  const meta = JSON.parse(await readFile(join(v2, ".zmetadata"), "utf8")) as { metadata: Record<string, unknown> };
  const names = Object.keys(meta.metadata)
    .filter((key) => key.endsWith("/.zarray"))
    .map((key) => key.slice(0, -"/.zarray".length));
  for (const name of names) {
    const a = await zarr.open.v2(zarr.root(new FileSystemStore(v2)).resolve(name), { kind: "array" });
    const b = await zarr.open.v3(zarr.root(new FileSystemStore(v3)).resolve(name), { kind: "array" });
    expect(b.shape, `${what}: v3 ${name}`).toEqual(a.shape);
    if (a.shape.some((s) => s === 0)) continue;
    expect(flat(await zarr.get(b)), `${what}: v3 ${name}`).toEqual(flat(await zarr.get(a)));
  }
}

/**
 * A `--where` selecting the rows whose start along the first dim the rows
 * are cut along is in a run of at least one and fewer than all starts, and
 * the cells `[start, stop)` they cover; undefined when the rows are not cut.
 */
async function rowRun(table: string): Promise<{ where: string; dim: string; start: number; stop: number } | undefined> {
  const rows: { grid: { name: string; size: number }[]; offset: number[] }[] = [];
  for await (const row of scan(await open(table))) {
    const offset = row.globalAttr("chunk_offset");
    if (!Array.isArray(offset)) return undefined;
    rows.push({ grid: row.grid(), offset: offset.map(Number) });
  }
  const grid = rows[0]!.grid;
  for (let d = 0; d < grid.length; d++) {
    const starts = [...new Set(rows.map((row) => row.offset[d]!))].sort((a, b) => a - b);
    if (starts.length < 2) continue;
    const first = starts.length > 2 ? 1 : 0;
    const start = starts[first]!;
    const stop = starts[first + 1]!;
    const at = `array_element(__global_attrs__.chunk_offset, ${d + 1})`;
    return { where: `${at} >= ${start} AND ${at} < ${stop}`, dim: grid[d]!.name, start, stop };
  }
  return undefined;
}
