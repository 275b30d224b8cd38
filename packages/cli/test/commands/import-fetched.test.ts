/**
 * The bytes an import from a URL fetches: the `--json` summary's
 * `bytesFetched` equals the bytes the local file server (`startFileServer`)
 * sent, for a Zarr store with a selection, a classic netCDF file read by
 * byte ranges (and from a server that ignores `Range`) and a netCDF-4 file
 * copied to a temporary file; on a terminal (a sink that says it is one),
 * the progress bar's last frame reports the same bytes, and a netCDF-4
 * file's copy has a bar of its own. The summary line names them.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { type FileServer, pythonSkipReason, startFileServer } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBytes } from "../../src/output/disk-size.js";
import { run } from "../../src/run.js";
import { cliAsync } from "./harness.js";
import { httpSources } from "./http-sources.js";

const skip =
  pythonSkipReason(
    "import byte count oracle",
    ["numpy", "pandas", "xarray", "zarr", "netCDF4"],
    "apt-get install python3-xarray python3-zarr python3-netcdf4",
  ) !== undefined;

// t(time=48, lat=20, lon=30) float32, 8 steps a Zarr chunk; the same as classic and netCDF-4 files.
const WRITE = `
import sys, numpy as np, pandas as pd, xarray as xr
out = sys.argv[1]
t = (np.arange(48 * 20 * 30, dtype="float32") * 0.25).reshape(48, 20, 30)
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K"}), "u": (("time", "lat", "lon"), -t)},
                coords={"time": pd.date_range("2020-01-01", periods=48, freq="h"),
                        "lat": np.linspace(60, 41, 20), "lon": np.linspace(0, 29, 30)})
time = {"units": "hours since 2020-01-01", "dtype": "int32"}
ds.to_zarr(f"{out}/t.zarr", encoding={"time": time, "t": {"chunks": (8, 20, 30)}, "u": {"chunks": (8, 20, 30)}})
ds.to_netcdf(f"{out}/t-classic.nc", format="NETCDF3_64BIT", encoding={"time": time})
ds.to_netcdf(f"{out}/t-nc4.nc", format="NETCDF4", encoding={"time": time})
`;

const sources = httpSources(skip, WRITE);
let whole: FileServer;
beforeAll(async () => {
  if (!skip) whole = await startFileServer(sources.dir, { ignoreRange: true });
});
afterAll(() => whole?.stop());

/** The bytes `served` sent since its last reset. */
function sent(served: FileServer): number {
  return served.requests.reduce((n, r) => n + r.bytes, 0);
}

/** A sink that says it is a terminal, keeping what is written. */
function terminal(): { isTTY: true; text: string; write(chunk: string | Uint8Array): boolean } {
  return {
    isTTY: true,
    text: "",
    write(chunk) {
      this.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    },
  };
}

/** The last frame of the bar labelled `label` in what a terminal sink received. */
function lastFrame(text: string, label: string): string | undefined {
  return text
    .replaceAll("\u001b[1G", "\r")
    .split("\r")
    .filter((frame) => frame.startsWith(`${label} [`))
    .at(-1);
}

describe.skipIf(skip)("the bytes an import from a URL fetches", () => {
  const cases = [
    {
      name: "a Zarr store, --project t --isel time=8:24",
      path: "t.zarr",
      flags: ["--project", "t", "--isel", "time=8:24"],
    },
    { name: "a classic netCDF file, by byte ranges", path: "t-classic.nc", flags: [] },
    { name: "a netCDF-4 file, through a temporary copy", path: "t-nc4.nc", flags: [] },
  ];
  for (const [i, c] of cases.entries()) {
    it(`${c.name}: --json bytesFetched is what the server sent`, async () => {
      sources.server.reset();
      const table = join(sources.dir, `json-${i}.lance`);
      const imported = await cliAsync(["import", `${sources.server.url}/${c.path}`, table, ...c.flags, "--json"]);
      expect(imported.code, imported.stderr).toBe(0);
      const summary = JSON.parse(imported.stdout) as { bytesFetched: number };
      expect(summary.bytesFetched).toBeGreaterThan(0);
      expect(summary.bytesFetched).toBe(sent(sources.server));
    });
  }

  it("a classic netCDF file from a server that ignores Range: fetched whole once, and that body counted", async () => {
    whole.reset();
    const table = join(sources.dir, "whole.lance");
    const imported = await cliAsync(["import", `${whole.url}/t-classic.nc`, table, "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    const summary = JSON.parse(imported.stdout) as { bytesFetched: number };
    expect(whole.requests.filter((r) => r.status === 200 && r.method === "GET").length).toBe(1);
    expect(summary.bytesFetched).toBe(sent(whole));
  });

  it("on a terminal: the import bar's last frame and the one summary line report the bytes the server sent", async () => {
    sources.server.reset();
    const [stdout, stderr] = [terminal(), terminal()];
    const code = await run(["import", `${sources.server.url}/t.zarr`, join(sources.dir, "tty-zarr.lance")], {
      stdout,
      stderr,
    });
    expect(code, stderr.text).toBe(0);
    const fetched = `${formatBytes(sent(sources.server))} fetched`;
    expect(lastFrame(stderr.text, "import")).toContain(` rows | ${fetched}`);
    expect(stdout.text.trim().split("\n")).toHaveLength(1);
    expect(stdout.text).toContain(`, ${fetched}, 5 variables) as `);
  });

  it("on a terminal: a netCDF-4 file's copy shows a bar of its own, to the file's size", async () => {
    sources.server.reset();
    const [stdout, stderr] = [terminal(), terminal()];
    const url = `${sources.server.url}/t-nc4.nc`;
    const code = await run(["import", url, join(sources.dir, "tty-nc4.lance")], { stdout, stderr });
    expect(code, stderr.text).toBe(0);
    const size = formatBytes(statSync(join(sources.dir, "t-nc4.nc")).size);
    expect(lastFrame(stderr.text, `download ${url}`)).toContain(`100% | ${size} of ${size} | `);
    expect(lastFrame(stderr.text, "import")).toContain(`${formatBytes(sent(sources.server))} fetched`);
  });
});
