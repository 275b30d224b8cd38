/**
 * Many files as one dataset (`lance-nd import --concat time`, and lance-nd's
 * `planConcat` / `concatRows`) against xarray's
 * `open_mfdataset(files, combine="by_coords")`: yearly netCDF files made by
 * netCDF4-python (scripts/xarray-mfdataset-oracle.py), compared value by
 * value through region reads, export, plot and the viewer, after an append and a replace
 * by file; overlapping and disagreeing files are refused; concat imports
 * hold their id's claim (lance-nd README, "Guarantees").
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { decode } from "@lance-nd/nd-arrow";
import { openNetcdf } from "@lance-nd/netcdf";
import { SOURCE_FILE_ATTR, concatRows, dataset, open, planConcat, scan, write } from "lance-nd";
import { callPython, pythonSkipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { claimImport } from "lance-nd/internal";
import { CLI, cli, ensureBuilt, tempDir } from "./commands/harness.js";
import { send, startViewer } from "./view/viewer.js";

const SCRIPT = join(import.meta.dirname, "..", "scripts", "xarray-mfdataset-oracle.py");

const reason = pythonSkipReason(
  "open_mfdataset oracle",
  ["xarray", "netCDF4", "dask"],
  "apt-get install python3-xarray python3-netcdf4 python3-dask",
);

type Values = Record<"time" | "lat" | "lon" | "tas", (number | null)[]>;

describe.skipIf(reason !== undefined)("import --concat time against xarray.open_mfdataset", () => {
  let dir: string;
  const table = () => join(dir, "tas.lance");
  const files = (...names: string[]) => names.map((name) => join(dir, name));

  /** open_mfdataset(files, combine="by_coords"), or its error. */
  function oracle(names: string[]): { values?: Values; error?: string } {
    const out = join(dir, "oracle.json");
    const run = callPython([SCRIPT, "read", out, ...files(...names)]);
    if (run.status !== 0) return { error: run.stderr };
    return { values: JSON.parse(readFileSync(out, "utf8")) as Values };
  }

  /** The table's dataset read with lance-nd's `dataset()`, flat. */
  async function readTable(): Promise<Values> {
    const read = await (await dataset(await open(table()))).read();
    const flat = (name: string) => Array.from(read.get(name)!.values, (v) => (v === null ? null : Number(v)));
    return { time: flat("time"), lat: flat("lat"), lon: flat("lon"), tas: flat("tas") };
  }

  /** The `chunk_offset` along time of each row, by `_SourceFile`. */
  async function offsetsByFile(): Promise<Record<string, number[]>> {
    const out: Record<string, number[]> = {};
    for await (const row of scan(await open(table())).project([])) {
      const name = row.globalAttr(SOURCE_FILE_ATTR) as string;
      out[name] = [...(out[name] ?? []), Number((row.globalAttr("chunk_offset") as number[])[0])];
    }
    for (const list of Object.values(out)) list.sort((a, b) => a - b);
    return out;
  }

  function run(args: string[]) {
    return cli(args, dir);
  }

  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    const made = callPython([SCRIPT, "make", dir]);
    if (made.status !== 0) throw new Error(made.stderr);
  });

  it("three files given out of order are one dataset along time, value by value as open_mfdataset; each file keeps its rows", async () => {
    const imported = run([
      "import",
      "--concat",
      "time",
      "--chunk",
      "time=2",
      ...files("tas_2002.nc", "tas_2000.nc", "tas_2001.nc"),
      table(),
      "--id",
      "tas",
    ]);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    const expected = oracle(["tas_2000.nc", "tas_2001.nc", "tas_2002.nc"]).values!;
    expect(expected.time).toHaveLength(10);
    expect(await readTable()).toEqual(expected);
    // 3, 4 and 3 steps cut by time=2 within each file, offsets continuing from the files before.
    expect(await offsetsByFile()).toEqual({
      "tas_2000.nc": [0, 2],
      "tas_2001.nc": [3, 5],
      "tas_2002.nc": [7, 9],
    });
  });

  it("region reads, export and plot see one dataset across the files", async () => {
    const expected = oracle(["tas_2000.nc", "tas_2001.nc", "tas_2002.nc"]).values!;
    // time 44 .. 410: the last two steps of 2000 and the first two of 2001.
    const window = await (await dataset(await open(table()))).sel({ time: [44, 410] }).read(["tas"]);
    expect(Array.from(window.get("tas")!.values, (v) => (v === null ? null : Number(v)))).toEqual(
      expected.tas.slice(12, 60),
    );
    expect(run(["export", table(), "all.nc"]).code).toBe(0);
    expect(oracle(["all.nc"]).values).toEqual(expected);
    const plot = run(["plot", table(), "tas", "--sel", "time=410", "-o", "step.png", "--json"]);
    expect(plot.stderr).toBe("");
    expect(JSON.parse(plot.stdout)).toMatchObject({ rowsRead: 1 });
  });

  it("an overlapping or decreasing file, or one with another latitude or time units, is refused naming it; the table keeps its version", async () => {
    const version = await (await open(table())).version();
    const refusals: [string, RegExp][] = [
      ["overlap.nc", /overlap\.nc overlaps .*tas\.lance: its "time" starts at 400, at or before 805/],
      ["other_lat.nc", /other_lat\.nc: coordinate "lat" differs from .*tas\.lance at index 0 \(-40 vs -45\)/],
      ["backwards.nc", /backwards\.nc: "time" is not increasing \(1535 then 1505 at index 1\)/],
      [
        "other_units.nc",
        /other_units\.nc: "time" has units "days since 2004-01-01", .*tas\.lance has "days since 2000-01-01"/,
      ],
    ];
    const append = (name: string) => [
      "import",
      "--concat",
      "time",
      files(name)[0]!,
      table(),
      "--id",
      "tas",
      "--mode",
      "append",
    ];
    for (const [name, message] of refusals) {
      const refused = run(append(name));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    }
    const replaceMissing = run([...append("tas_2003.nc").slice(0, -1), "replace"]);
    expect(replaceMissing.stderr).toMatch(
      /the dataset "tas" has no file "tas_2003\.nc" to replace .*; use --mode append/,
    );
    const noId = run(["import", "--concat", "time", ...files("tas_2000.nc", "tas_2001.nc"), "x.lance"]);
    expect(noId.stderr).toBe(
      "lance-nd: cannot import into x.lance (--concat time makes one dataset of the files: name it with --id)\n",
    );
    expect(await (await open(table())).version()).toBe(version);
    // A create of overlapping files: refused naming both, no table left; xarray refuses them too.
    const created = run([
      "import",
      "--concat",
      "time",
      ...files("tas_2001.nc", "overlap.nc"),
      "new.lance",
      "--id",
      "x",
    ]);
    expect(created.code).toBe(1);
    expect(created.stderr).toMatch(/overlap\.nc overlaps .*tas_2001\.nc/);
    expect(run(["info", "new.lance"]).code).toBe(1);
    expect(oracle(["tas_2001.nc", "overlap.nc"]).error).toMatch(/monotonic/);
  });

  it("--mode append places a 4th file (a Zarr store) after the last one; --mode replace swaps the rows of one file", async () => {
    const appended = run([
      "import",
      "--concat",
      "time",
      files("tas_2003.zarr")[0]!,
      table(),
      "--id",
      "tas",
      "--mode",
      "append",
    ]);
    expect(appended.stderr).toBe("");
    const four = oracle(["tas_2000.nc", "tas_2001.nc", "tas_2002.nc", "tas_2003.nc"]).values;
    expect(await readTable()).toEqual(four);
    expect((await offsetsByFile())["tas_2003.zarr"]).toEqual([10]);
    // The store's attributes differ from the netCDF files' (no _ChunkSizes): the first file's are the dataset's.
    expect(run(["export", table(), "four.nc"]).code).toBe(0);
    expect(oracle(["four.nc"]).values).toEqual(four);
    const replaced = run([
      "import",
      "--concat",
      "time",
      files("fixed/tas_2001.nc")[0]!,
      table(),
      "--id",
      "tas",
      "--mode",
      "replace",
      "--json",
    ]);
    expect(replaced.stderr).toBe("");
    expect(JSON.parse(replaced.stdout)).toMatchObject({ replacedRows: 2 });
    expect(await readTable()).toEqual(
      oracle(["tas_2000.nc", "fixed/tas_2001.nc", "tas_2002.nc", "tas_2003.nc"]).values,
    );
  });

  it("the viewer lists the files as one dataset and serves a time step of each", async () => {
    const expected = oracle(["tas_2000.nc", "fixed/tas_2001.nc", "tas_2002.nc", "tas_2003.nc"]).values!;
    const viewer = await startViewer(table());
    try {
      const api = (route: string, query: string) => send(viewer, `/api/${route}?token=${viewer.token}&${query}`);
      const catalog = (await api("table", "")).json();
      expect(catalog.datasets).toMatchObject([{ id: "tas" }]);
      expect((await api("dataset", "dataset=tas")).json()).toMatchObject({
        dims: [
          { name: "time", size: 14 },
          { name: "lat", size: 3 },
          { name: "lon", size: 4 },
        ],
      });
      for (const time of [2, 3, 9, 10]) {
        const reply = await api("window", `dataset=tas&variable=tas&isel=time%3D${time}`);
        expect(reply.status).toBe(200);
        const [window] = tableFromIPC(reply.body).batches.flatMap((rb) => decode(rb));
        // The viewer sends missing values as NaN.
        const values = Array.from(window!.get("tas")!.values, (v) =>
          v === null || Number.isNaN(v) ? null : Number(v),
        );
        expect(values, `time=${time}`).toEqual(expected.tas.slice(time * 12, (time + 1) * 12));
      }
    } finally {
      await viewer.stop();
    }
  });

  it("concat imports hold the id's claim: --no-wait names the holder; two appends of one file at once append it once", async () => {
    const uri = join(dir, "claimed.lance");
    const create = ["import", "--concat", "time", ...files("tas_2000.nc", "tas_2001.nc"), uri, "--id", "tas"];
    expect(run(create).code).toBe(0);
    const append = ["import", "--concat", "time", files("tas_2002.nc")[0]!, uri, "--id", "tas", "--mode", "append"];
    const claim = await claimImport(uri, { mode: "replace", branch: null, ids: ["tas"], wait: { timeoutMs: 0 } });
    const held = run([...append, "--no-wait"]);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(`id "tas" is being written by another import: held by import ${claim.mark.uuid}`);
    await claim.release();
    const start = () =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...append], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        child.on("exit", (code) => resolve({ code, stderr }));
      });
    const ends = await Promise.all([start(), start()]);
    expect(ends.map((e) => e.code).sort()).toEqual([0, 1]);
    expect(ends.find((e) => e.code === 1)!.stderr).toContain(`has the file "tas_2002.nc" already`);
    const read = await (await dataset(await open(uri))).read(["tas"]);
    expect(Array.from(read.get("tas")!.values, (v) => (v === null ? null : Number(v)))).toEqual(
      oracle(["tas_2000.nc", "tas_2001.nc", "tas_2002.nc"]).values!.tas,
    );
  });

  it("the library's planConcat and concatRows (lance-nd README, Many files, one dataset) make the same dataset", async () => {
    const uri = join(dir, "library.lance");
    const paths = files("tas_2001.nc", "tas_2000.nc", "tas_2002.nc");
    // --8<-- [start:concat]
    const sources = await Promise.all(paths.map((path) => openNetcdf(path)));
    const parts = await planConcat(sources, "time"); // in time order: tas_2000.nc, tas_2001.nc, tas_2002.nc
    await write(
      uri,
      concatRows(parts, "time", (file) => file.chunks({ time: 2 })),
    );
    for (const file of sources) await file.close();
    const tas = await dataset(await open(uri)); // one dataset: time 10, lat 3, lon 4
    // --8<-- [end:concat]
    expect(parts.map((p) => [p.name, p.start, p.size])).toEqual([
      ["tas_2000.nc", 0, 3],
      ["tas_2001.nc", 3, 4],
      ["tas_2002.nc", 7, 3],
    ]);
    const expected = oracle(["tas_2000.nc", "tas_2001.nc", "tas_2002.nc"]).values!;
    const read = await tas.read(["time", "tas"]);
    expect(Array.from(read.get("time")!.values, Number)).toEqual(expected.time);
    // Raw values (no --cf): the fill value where xarray masks.
    expect(Array.from(read.get("tas")!.values, Number)).toEqual(expected.tas.map((v) => v ?? -999));
  });
});
