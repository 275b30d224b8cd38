/**
 * `--isel` on a table whose rows are cut at different places in each lat
 * band (time at 4 and 8 in one, at 6 in the other), with variables that
 * lack dims (the coordinates, a `mask(lat, lon)`): `export` writes the
 * window, checked by xarray + netCDF4 against the source's values, and the
 * whole table, whose xarray selection equals the window's export; `plot`
 * reads the rows of one time step; `scan` gives each cell once. Run as a
 * user does (the built CLI) on a table written with lance-nd's `write`.
 */
import { join } from "node:path";
import { Float32, Float64 } from "apache-arrow";
import { NdArray, NdRecordBatch, attr, slice } from "@lance-nd/nd-arrow";
import { write } from "lance-nd";
import { callPython, pythonSkipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const [NT, NY, NX] = [12, 10, 8];

/** The rows' boxes: `[time start, time stop, lat start, lat stop]`. */
const BOXES = [
  [0, 4, 0, 5],
  [4, 8, 0, 5],
  [8, 12, 0, 5],
  [0, 6, 5, 10],
  [6, 12, 5, 10],
] as const;

/** 10 y + x of the `i`-th (lat, lon) cell. */
function cellValue(i: number): number {
  return 10 * Math.floor(i / NX) + (i % NX);
}

/** sst = 1000 t + 10 y + x, mask = 10 y + x, time = t days, lat = 45 - 10 y, lon = 45 x (the oracle rebuilds them). */
function source(): NdRecordBatch {
  return new NdRecordBatch(
    {
      sst: NdArray.from(
        Float32Array.from(
          { length: NT * NY * NX },
          (_, i) => 1000 * Math.floor(i / (NY * NX)) + cellValue(i % (NY * NX)),
        ),
        { dims: { time: NT, lat: NY, lon: NX }, type: new Float32() },
      ),
      mask: NdArray.from(
        Float64Array.from({ length: NY * NX }, (_, i) => cellValue(i)),
        { dims: { lat: NY, lon: NX }, type: new Float64() },
      ),
      time: NdArray.from(
        Float64Array.from({ length: NT }, (_, t) => t),
        { dims: { time: NT }, attrs: { units: "days since 2000-01-01" } },
      ),
      lat: NdArray.from(
        Float64Array.from({ length: NY }, (_, y) => 45 - 10 * y),
        { dims: { lat: NY } },
      ),
      lon: NdArray.from(
        Float64Array.from({ length: NX }, (_, x) => 45 * x),
        { dims: { lon: NX } },
      ),
    },
    { id: "irregular.nc" },
  );
}

/** The rows of {@link BOXES}: every variable cut on the dims it has, placed by `chunk_offset`. */
function rows(batch: NdRecordBatch): NdRecordBatch[] {
  return BOXES.map(([t0, t1, y0, y1]) => {
    const window = { time: [t0, t1], lat: [y0, y1] } as const;
    const arrays = batch.arrays().map(([name, a]) => {
      const own = Object.fromEntries(Object.entries(window).filter(([dim]) => a.dimNames.includes(dim)));
      return [name, slice(a, own)] as const;
    });
    return new NdRecordBatch(
      arrays,
      new Map([...batch.globalAttrs, ["chunk_offset", attr.uint32(Uint32Array.from([t0, y0, 0]))]]),
    );
  });
}

const skipOracle =
  pythonSkipReason("xarray oracle", ["xarray", "netCDF4"], "apt-get install python3-xarray python3-netcdf4") !==
  undefined;

describe("region selections on rows cut at different places", () => {
  let dir: string;
  const table = () => join(dir, "irregular.lance");
  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir();
    await write(table(), rows(source()));
  });

  it.skipIf(skipOracle)(
    "export --isel writes the window of every variable, as xarray reads it, from the rows it meets",
    () => {
      const run = cli(["export", table(), "window.nc", "--isel", "time=3:9,lat=2:8", "--json"], dir);
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout)).toMatchObject({
        rows: 5,
        grid: [
          { name: "time", size: 6 },
          { name: "lat", size: 6 },
          { name: "lon", size: 8 },
        ],
      });
      const check = [
        "import sys, numpy as np, xarray as xr",
        "w = xr.open_dataset(sys.argv[1], decode_times=False)",
        "t, y, x = np.arange(3, 9), np.arange(2, 8), np.arange(8)",
        "want = {'sst': 1000 * t[:, None, None] + 10 * y[None, :, None] + x, 'mask': 10 * y[:, None] + x,",
        "        'time': t, 'lat': 45 - 10 * y, 'lon': 45 * x}",
        "assert sorted(w.variables) == sorted(want), list(w.variables)",
        "for name, values in want.items(): np.testing.assert_array_equal(w[name].values, values, err_msg=name)",
        "print('ok', w['sst'].dims, w['mask'].dims)",
      ].join("\n");
      const py = callPython(["-c", check, join(dir, "window.nc")]);
      expect(py.stderr).toBe("");
      expect(py.stdout.trim()).toBe("ok ('time', 'lat', 'lon') ('lat', 'lon')");
    },
  );

  it.skipIf(skipOracle)(
    "export of the whole table assembles the rows: xarray's isel of it equals the --isel export",
    () => {
      expect(cli(["export", table(), "full.nc"], dir).stderr).toBe("");
      expect(cli(["export", table(), "part.nc", "--isel", "time=3:9,lat=2:8"], dir).stderr).toBe("");
      const check = [
        "import sys, numpy as np, xarray as xr",
        "full = xr.open_dataset(sys.argv[1], decode_times=False).isel(time=slice(3, 9), lat=slice(2, 8))",
        "part = xr.open_dataset(sys.argv[2], decode_times=False)",
        "assert sorted(full.variables) == sorted(part.variables), list(full.variables)",
        "for name in full.variables: np.testing.assert_array_equal(full[name].values, part[name].values, err_msg=name)",
        "print('ok', dict(full.sizes))",
      ].join("\n");
      const py = callPython(["-c", check, join(dir, "full.nc"), join(dir, "part.nc")]);
      expect(py.stderr).toBe("");
      expect(py.stdout.trim()).toBe("ok {'time': 6, 'lat': 6, 'lon': 8}");
    },
  );

  it("plot --isel of one time step reads the two rows that hold it", () => {
    const run = cli(["plot", table(), "sst", "--isel", "time=5", "-o", "step.png", "--json"], dir);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toMatchObject({ rows: "lat", cols: "lon", rowsRead: 2 });
  });

  it("scan --isel gives each cell of the window once, at its block's chunk_offset", () => {
    const run = cli(["scan", table(), "--project", "sst", "--isel", "time=5:7,lat=3:7", "--json"], dir);
    expect(run.stderr).toBe("");
    const blocks = JSON.parse(run.stdout) as {
      globalAttrs: { chunk_offset: number[] };
      arrays: { sst: { dims: { name: string; size: number }[]; values: number[] } };
    }[];
    const cells = new Map<string, number>();
    for (const { globalAttrs, arrays } of blocks) {
      const [sizeT, sizeY, sizeX] = arrays.sst.dims.map((d) => d.size) as [number, number, number];
      const [t0, y0] = globalAttrs.chunk_offset as [number, number, number];
      arrays.sst.values.forEach((value, i) => {
        const cell = [t0 + Math.floor(i / (sizeY * sizeX)), y0 + (Math.floor(i / sizeX) % sizeY), i % sizeX];
        expect(cells.has(String(cell)), `cell ${cell} twice`).toBe(false);
        cells.set(String(cell), value);
        expect(value).toBe(1000 * (5 + cell[0]!) + 10 * (3 + cell[1]!) + cell[2]!);
      });
      expect(sizeT * sizeY * sizeX).toBe(arrays.sst.values.length);
    }
    expect(cells.size).toBe(2 * 4 * 8);
  });
});
