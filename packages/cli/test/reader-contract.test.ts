/**
 * The reader contract (nd-arrow README "Windows"): the netCDF reader, the
 * Zarr reader and lance-nd's datasets answer the same call the same way, on
 * real files: the ocean-nc4.nc fixture (ncgen) and Debian's GSHHG coastline
 * file (netCDF-4), each also as a Zarr v2 store written by xarray's
 * `to_zarr` (python3-zarr) and as a lance-nd table of the file's rows.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NdArray, Selection } from "@lance-nd/nd-arrow";
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import { openNetcdf, writeNetcdf } from "@lance-nd/netcdf";
import type { NetcdfFile } from "@lance-nd/netcdf";
import {
  ensureNetcdfFixtures,
  failure,
  netcdfToolsSkipReason,
  pythonSkipReason,
  runPython,
  skipReason,
} from "@lance-nd/test-helpers";
import { openZarr, writeZarr } from "@lance-nd/zarr";
import type { ZarrStore } from "@lance-nd/zarr";
import { dataset, write } from "lance-nd";
import type { Dataset, NdTable } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const GSHHG = "/usr/share/gmt-gshhg/binned_GSHHS_c.nc";
const skip =
  netcdfToolsSkipReason() ??
  pythonSkipReason(
    "reader contract oracle",
    ["numpy", "xarray", "zarr"],
    "apt-get install python3-xarray python3-zarr",
  ) ??
  skipReason(existsSync(GSHHG) ? undefined : `${GSHHG} is missing (apt-get install gmt-gshhg-low)`);

// The netCDF file as xarray writes it to Zarr v2 with the stored values (no CF decoding); text variables left out.
const TO_ZARR = `
import sys, xarray as xr
ds = xr.open_dataset(sys.argv[1], decode_cf=False, mask_and_scale=False, decode_times=False)
ds = ds.drop_vars([n for n, v in ds.variables.items() if v.dtype.kind in "SUO"])
ds.to_zarr(sys.argv[2])
`;

/** One file seen through the three readers. */
interface Readers {
  netcdf: NetcdfFile;
  zarr: ZarrStore;
  table: NdTable;
  ds: Dataset;
  /** The variables all three hold (numbers: text is not written to the Zarr store). */
  names: string[];
}

/** What a read gives, comparable across readers: dims and values. */
function plain(array: NdArray): { dims: string; values: unknown[] } {
  return {
    dims: array.dims.map((d) => `${d.name}=${d.size}`).join(","),
    values: Array.from(array.values as Iterable<unknown>, (v) => (typeof v === "bigint" ? String(v) : v)),
  };
}

/** The error code of a failed call, or "ok". */
async function codeOf(run: () => Promise<unknown>): Promise<string> {
  const err = await failure(run);
  return err === undefined ? "ok" : String((err as { code?: unknown }).code);
}

describe.skipIf(skip !== undefined)("one reader contract: netCDF, Zarr and datasets", () => {
  let dir: string;
  const opened: Readers[] = [];

  async function open(path: string, name: string): Promise<Readers> {
    const store = join(dir, `${name}.zarr`);
    runPython(["-c", TO_ZARR, path, store]);
    const netcdf = await openNetcdf(path);
    const zarr = await openZarr(store);
    const table = await write(join(dir, `${name}.lance`), netcdf.chunks({}), { mode: "create" });
    const readers = {
      netcdf,
      zarr,
      table,
      ds: await dataset(table),
      names: zarr.variables.map((v) => v.name).filter((n) => netcdf.variables.some((v) => v.name === n)),
    };
    opened.push(readers);
    return readers;
  }

  let ocean: Readers;
  let gshhg: Readers;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lance-nd-reader-contract-"));
    ensureNetcdfFixtures(join(dir, "fixtures"));
    ocean = await open(join(dir, "fixtures", "ocean-nc4.nc"), "ocean");
    gshhg = await open(GSHHG, "gshhg");
  });
  afterAll(async () => {
    for (const r of opened) await r.netcdf.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("property (seeded): the same selection reads the same dims and stored values from all three", async () => {
    let seed = 42;
    const next = (lo: number, hi: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return lo + (seed % (hi - lo + 1));
    };
    for (const readers of [ocean, gshhg]) {
      expect(readers.names.length).toBeGreaterThan(3);
      for (let round = 0; round < 40; round++) {
        const name = readers.names[next(0, readers.names.length - 1)]!;
        const dims = readers.netcdf.variable(name).dims;
        const selection: Record<string, number | [number, number]> = {};
        for (const d of dims) {
          const kind = next(0, 2);
          if (kind === 1) selection[d.name] = next(-d.size, d.size - 1);
          if (kind === 2) selection[d.name] = [next(-d.size - 2, d.size + 2), next(-d.size - 2, d.size + 2)];
        }
        const what = `${name} ${JSON.stringify(selection)}`;
        const fromNetcdf = plain(await readers.netcdf.read(name, selection));
        expect(plain(await readers.zarr.read(name, selection)), what).toEqual(fromNetcdf);
        expect(plain((await readers.ds.isel(selection).read([name])).get(name)!), what).toEqual(fromNetcdf);
      }
    }
  });

  it("an unknown variable is VariableNotFound in all three", async () => {
    for (const { netcdf, zarr, ds } of [ocean, gshhg]) {
      expect(await codeOf(() => netcdf.read("nope"))).toBe("VariableNotFound");
      expect(await codeOf(() => zarr.read("nope"))).toBe("VariableNotFound");
      expect(await codeOf(() => ds.read(["nope"]))).toBe("VariableNotFound");
    }
  });

  it("a dim that is not there is DimNotFound in all three; an index outside its dim is each package's bad-input code", async () => {
    const unknown: Selection = { depth: [0, 1] };
    expect(await codeOf(() => ocean.netcdf.read("sst", unknown))).toBe("DimNotFound");
    expect(await codeOf(() => ocean.zarr.read("sst", unknown))).toBe("DimNotFound");
    expect(await codeOf(() => ocean.ds.isel(unknown).read(["sst"]))).toBe("DimNotFound");
    const outside: Selection = { time: 3 };
    expect(await codeOf(() => ocean.netcdf.read("sst", outside))).toBe("InvalidArgument");
    expect(await codeOf(() => ocean.zarr.read("sst", outside))).toBe("InvalidArgument");
    expect(await codeOf(() => ocean.ds.isel(outside).read(["sst"]))).toBe("InvalidInput");
  });

  it("values come as stored in all three: CF attributes kept, nothing unpacked", async () => {
    for (const read of [
      () => ocean.netcdf.read("sst", { time: 0 }),
      () => ocean.zarr.read("sst", { time: 0 }),
      async () => (await ocean.ds.isel({ time: 0 }).read(["sst"])).get("sst")!,
    ]) {
      const sst = await read();
      expect(String(sst.type)).toBe("Float32");
      expect(sst.attrs.get("scale_factor")?.toJS()).toBeCloseTo(0.01);
      expect(sst.attrs.get("add_offset")?.toJS()).toBe(20);
    }
  });

  it("options are zod-checked: an unknown option is refused by each opener, naming it", async () => {
    const path = join(dir, "fixtures", "ocean-nc4.nc");
    const refusals = [
      await failure(() => openNetcdf(path, { cf: true } as never)),
      await failure(() => openZarr(join(dir, "ocean.zarr"), { cf: true } as never)),
      await failure(() => dataset(ocean.table, { cf: true } as never)),
    ] as { code: string; message: string }[];
    expect(refusals.map((e) => e.code)).toEqual(["InvalidArgument", "InvalidArgument", "InvalidInput"]);
    for (const err of refusals) expect(err.message).toMatch(/"cf"/);
  });

  it("writers share one overwrite option: mode create (the default) refuses an existing path, mode overwrite replaces it", async () => {
    const batch = new NdRecordBatch({ sst: await ocean.netcdf.read("sst", { time: [0, 1] }) });
    const nc = join(dir, "out.nc");
    const zarr = join(dir, "out.zarr");
    const lance = join(dir, "out.lance");
    await writeNetcdf(nc, batch);
    await writeZarr(zarr, batch);
    await write(lance, [batch], { mode: "create" });
    expect(await codeOf(() => writeNetcdf(nc, batch))).toBe("InvalidArgument");
    expect(await codeOf(() => writeZarr(zarr, batch))).toBe("InvalidArgument");
    expect(await codeOf(() => write(lance, [batch]))).toBe("TableExists");
    expect(await codeOf(() => writeNetcdf(nc, batch, { mode: "overwrite" }))).toBe("ok");
    expect(await codeOf(() => writeZarr(zarr, batch, { mode: "overwrite" }))).toBe("ok");
    expect(await codeOf(() => write(lance, [batch], { mode: "overwrite" }))).toBe("ok");
  });
});
