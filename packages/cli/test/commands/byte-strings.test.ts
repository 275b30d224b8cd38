/**
 * Byte strings (numpy `|S<n>`) through the built CLI: a Zarr v2 store that
 * zarr-python wrote, a netCDF char array made by ncgen and `|S` variables
 * that xarray wrote to netCDF, each imported and exported to Zarr and to
 * netCDF, checked with zarr-python, xarray, netCDF4 and ncdump; and how
 * `scan` prints them (CLI README, "scan").
 */
import { join } from "node:path";
import { ncdumpBody, pythonSkipReason, runPython, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cliQuiet } from "./checked-runs.js";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skip = pythonSkipReason(
  "byte-string oracles",
  ["numpy", "xarray", "zarr", "netCDF4"],
  "apt-get install python3-xarray python3-zarr python3-netcdf4 netcdf-bin",
);

/** Runs Python `code` with `args` as sys.argv[1:] and parses the JSON it prints. */
function oracle(code: string, ...args: string[]): unknown {
  return JSON.parse(runPython(["-c", code, ...args]));
}

// zarr-python 2 writes a |S4 array (2 x 3, chunks 1 x 2) with a fill value, bytes that are not UTF-8, a value equal to the fill.
const MAKE_ZARR = `
import sys, zarr, numpy as np
g = zarr.open_group(sys.argv[1], mode="w")
z = g.create_dataset("code", shape=(2, 3), dtype="|S4", chunks=(1, 2), fill_value=b"none")
z[:] = np.array([[b"abc", b"none", b"\\xe9t\\xe9"], [b"", b"z\\x00y", b"four"]], dtype="S4")
z.attrs["_ARRAY_DIMENSIONS"] = ["a", "b"]
z.attrs["long_name"] = "station code"
print("{}")
`;

// zarr-python's view of one array: dtype, fill value and every value as a list of byte values.
const ZARR_VIEW = `
import sys, json, zarr
z = zarr.open(sys.argv[1], mode="r")[sys.argv[2]]
as_list = lambda b: list(bytes(b))
print(json.dumps({"dtype": z.dtype.str, "fill": as_list(z.fill_value), "values": [as_list(v) for v in z[:].ravel()],
  "shape": list(z.shape), "attrs": dict(z.attrs)}))
`;

// xarray's and netCDF4's views of a netCDF variable: xarray's dtype and values (bytes as byte lists), netCDF4's dtype and shape.
const NETCDF_VIEW = `
import sys, json, xarray as xr, netCDF4
ds = xr.open_dataset(sys.argv[1])
v = ds[sys.argv[2]]
nc = netCDF4.Dataset(sys.argv[1])[sys.argv[2]]
print(json.dumps({"dtype": v.dtype.str, "dims": list(v.dims), "values": [list(bytes(b)) for b in v.values.ravel()],
  "nc_dtype": nc.dtype.str, "nc_dims": list(nc.dimensions), "variables": list(ds.variables)}))
`;

const bytesOf = (...texts: string[]) => texts.map((t) => [...Buffer.from(t, "latin1")]);

describe.skipIf(skip)("byte strings (|S<n>) in and out", () => {
  let dir: string;
  let table: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    oracle(MAKE_ZARR, join(dir, "codes.zarr"));
    table = join(dir, "codes.lance");
    cliQuiet(["import", join(dir, "codes.zarr"), table]);
  });

  it("a zarr-python |S4 store goes back to Zarr v2 as |S4 with the same bytes, fill value and attributes", () => {
    const out = join(dir, "codes-v2.zarr");
    cliQuiet(["export", table, out, "--format", "zarr", "--zarr-version", "2"]);
    const source = oracle(ZARR_VIEW, join(dir, "codes.zarr"), "code");
    expect(oracle(ZARR_VIEW, out, "code")).toEqual(source);
    expect(source).toMatchObject({ dtype: "|S4", fill: bytesOf("none")[0], attrs: { long_name: "station code" } });
  });

  it("Zarr v3 has no |S<n>: the export is refused in one line that says to write v2", () => {
    const run = cli(["export", table, join(dir, "codes-v3.zarr"), "--format", "zarr", "--zarr-version", "3"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('array "code": Binary has no Zarr v3 counterpart (write v2');
  });

  it("to netCDF it is a char array as xarray writes one: xarray reads the same |S4 values, ncdump a string4 dim", () => {
    const out = join(dir, "codes.nc");
    cliQuiet(["export", table, out]);
    expect(oracle(NETCDF_VIEW, out, "code")).toMatchObject({
      dtype: "|S4",
      dims: ["a", "b"],
      values: bytesOf("abc", "none", "\xe9t\xe9", "", "z\x00y", "four"),
      nc_dtype: "|S1",
      nc_dims: ["a", "b", "string4"],
    });
    expect(runTool("ncdump", ["-h", out])).toContain("char code(a, b, string4) ;");
  });

  it("scan prints byte strings as text: UTF-8 as it is, other bytes in Python's escaped form", () => {
    expect(cliQuiet(["scan", table])).toContain(`code binary(a=2, b=3) ["abc", "none", "b'\\\\xe9t\\\\xe9'", "", …]`);
    const [row] = JSON.parse(cliQuiet(["scan", table, "--json"])) as { arrays: { code: { values: unknown[] } } }[];
    expect(row!.arrays.code.values).toEqual(["abc", "none", "b'\\xe9t\\xe9'", "", "z\u0000y", "four"]);
  });

  it("a netCDF char array (ncgen) and xarray's |S variables: netCDF back as ncdump shows the source, Zarr v2 as |S<n>", () => {
    const cdl = join(dir, "stations.cdl");
    const made = join(dir, "stations.nc");
    runPython([
      "-c",
      `import sys; open(sys.argv[1], "w").write(sys.argv[2])`,
      cdl,
      'netcdf stations {\ndimensions:\n  n = 3 ;\n  strlen = 6 ;\nvariables:\n  char name(n, strlen) ;\n    name:long_name = "station name" ;\n  float t(n) ;\ndata:\n  name = "alpha", "beta", "gam" ;\n  t = 1, 2, 3 ;\n}\n',
    ]);
    runTool("ncgen", ["-4", "-o", made, cdl]);
    const written = join(dir, "xarray-bytes.nc");
    runPython([
      "-c",
      `import sys, numpy as np, xarray as xr
xr.Dataset({"code": ("n", np.array([b"ab", b"hello wo", b"x"], dtype="S8")), "v": ("n", np.arange(3.0))}).to_netcdf(sys.argv[1])`,
      written,
    ]);
    for (const [source, name] of [
      [made, "name"],
      [written, "code"],
    ] as const) {
      const lance = `${source}.lance`;
      cliQuiet(["import", source, lance]);
      cliQuiet(["export", lance, `${source}.out.nc`]);
      expect(ncdumpBody(`${source}.out.nc`), source).toBe(ncdumpBody(source));
      cliQuiet(["export", lance, `${source}.zarr`, "--format", "zarr", "--zarr-version", "2"]);
      const view = oracle(
        `import sys, json, xarray as xr
a, b = xr.open_dataset(sys.argv[1])[sys.argv[3]], xr.open_zarr(sys.argv[2])[sys.argv[3]]
print(json.dumps([[v.dtype.str, [list(bytes(x)) for x in v.values]] for v in (a, b)]))`,
        source,
        `${source}.zarr`,
        name,
      ) as unknown[];
      expect(view[1], source).toEqual(view[0]);
    }
  });
});
