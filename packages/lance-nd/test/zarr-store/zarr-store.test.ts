/**
 * `zarrStore` over tables imported from real netCDF files (xarray's
 * example_1.nc, GMT's GSHHS coastlines, the ncgen ocean fixtures) by the
 * built CLI: every metadata
 * document equals what `lance-nd export --format zarr` writes for the same
 * dataset but for the chunk grid and codec, zarrita reads every array over
 * the store value by value as it reads the exported store, in v2 and v3,
 * uncompressed and zlib; xarray (zarr-python 2) opens the store's bytes of
 * a `--cf raw` table as the dataset it opens from the netCDF file; a
 * dataset the export refuses is refused on its keys.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import {
  ensureNetcdfFixtures,
  failure,
  netcdfToolsSkipReason,
  pythonSkipReason,
  runPython,
  skipReason,
} from "@lance-nd/test-helpers";
import * as zarr from "zarrita";
import { beforeAll, describe, expect, it } from "vitest";
import { isLanceNdError, open, zarrStore } from "../../src/index.js";
import type { ZarrStore } from "../../src/index.js";

const EXAMPLE = "/usr/lib/python3/dist-packages/xarray/tests/data/example_1.nc";
const GSHHS = "/usr/share/gmt-gshhg/binned_GSHHS_c.nc";
/** The ncgen fixtures: CF packing, fill values, valid ranges, times and a char variable (strings). */
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "generated");
const OCEAN = join(FIXTURES, "ocean-classic.nc");
const FILES = { "example_1.nc": EXAMPLE, "binned_GSHHS_c.nc": GSHHS, "ocean-classic.nc": OCEAN } as const;

const missingFiles = [EXAMPLE, GSHHS].filter((file) => !existsSync(file));
const skip =
  skipReason(
    missingFiles.length > 0
      ? `zarrStore tests skipped: ${missingFiles.join(", ")} missing (python3-xarray, gmt-gshhg-low)`
      : undefined,
  ) ?? netcdfToolsSkipReason();
const pythonSkip = pythonSkipReason(
  "zarrStore xarray oracle",
  ["numpy", "xarray", "zarr", "netCDF4"],
  "apt-get install python3-xarray python3-zarr python3-netcdf4",
);

/**
 * The CLI's test harness (packages/cli/test/commands/harness.ts: runs the
 * built `lance-nd` command, building it first when stale), imported by a
 * path outside this package's type-check root.
 */
interface CliHarness {
  cli(args: readonly string[]): { code: number | null; stdout: string; stderr: string };
  ensureBuilt(): void;
  tempDir(): string;
}
const HARNESS = "../../../cli/test/commands/harness.js";
const { cli, ensureBuilt, tempDir } = (await import(HARNESS)) as CliHarness;

const METADATA = new Set([".zgroup", ".zattrs", ".zarray", ".zmetadata", "zarr.json"]);

/** A zarrita store over a directory, keys as paths under it. */
function directoryStore(root: string): zarr.AsyncReadable {
  return {
    async get(key: string) {
      try {
        return new Uint8Array(await readFile(join(root, key.slice(1))));
      } catch {
        return undefined;
      }
    },
  };
}

/** The metadata files under `root`, as keys relative to it. */
async function metadataKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && METADATA.has(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** A metadata document without what the store chooses itself: the chunk grid and codec. */
function withoutGrid(doc: Record<string, unknown>): Record<string, unknown> {
  const { chunks: _c, compressor: _z, chunk_grid: _g, codecs: _k, ...rest } = doc;
  if (rest.metadata !== undefined) {
    rest.metadata = Object.fromEntries(
      Object.entries(rest.metadata as Record<string, Record<string, unknown>>).map(([key, value]) => [
        key,
        withoutGrid(value),
      ]),
    );
  }
  return rest;
}

function json(bytes: Uint8Array | undefined): Record<string, unknown> {
  expect(bytes).toBeDefined();
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

/** `lance-nd export --format zarr` of dataset `id` of `table`, uncompressed. */
function exportZarr(table: string, id: string, out: string, version: 2 | 3): void {
  const run = cli([
    "export",
    table,
    out,
    "--format",
    "zarr",
    "--zarr-version",
    String(version),
    "--compression",
    "none",
    "--where",
    `__global_attrs__.id = '${id}'`,
  ]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}

/** The names of the arrays of a v2 or v3 store's dataset, from the exported metadata keys. */
function arrayNames(keys: readonly string[]): string[] {
  return keys.filter((k) => k.endsWith("/.zarray") || k.endsWith("/zarr.json")).map((k) => k.split("/")[0]!);
}

describe.skipIf(skip)("zarrStore over tables of real netCDF files", () => {
  let dir: string;
  /**
   * Tables per CF mode: example_1 in 3 rows along lat with GSHHS in one row,
   * and ocean-classic in 3 rows along time (its variables' types differ
   * from example_1's, so in a table of its own).
   */
  const tables: { cf: string; uri: string; ids: (keyof typeof FILES)[] }[] = [];
  beforeAll(() => {
    ensureBuilt();
    ensureNetcdfFixtures(FIXTURES);
    dir = tempDir();
    const layouts = [
      { name: "a", ids: ["example_1.nc", "binned_GSHHS_c.nc"], chunk: ["--chunk", "lat=2"] },
      { name: "b", ids: ["ocean-classic.nc"], chunk: ["--chunk", "time=1"] },
    ] as const;
    for (const cf of ["mask", "decode", "raw"]) {
      for (const { name, ids, chunk } of layouts) {
        const uri = join(dir, `${cf}-${name}.lance`);
        for (const [i, id] of ids.entries()) {
          const args = i === 0 ? chunk : ["--mode", "append"];
          const run = cli(["import", FILES[id], uri, "--cf", cf, ...args]);
          expect(run.code, run.stderr).toBe(0);
        }
        tables.push({ cf, uri, ids: [...ids] });
      }
    }
  });

  for (const version of [2, 3] as const) {
    it(`v${version}: every metadata document equals the export's but for chunks and codec, for each CF mode`, async () => {
      for (const { cf, uri, ids } of tables) {
        const store = await zarrStore(await open(uri), { zarrVersion: version, codec: "zlib" });
        expect(await store.datasets()).toEqual(ids);
        for (const id of ids) {
          const out = join(dir, `${cf}-${id}-v${version}.zarr`);
          exportZarr(uri, id, out, version);
          const keys = await metadataKeys(out);
          expect(keys).toContain(version === 2 ? ".zmetadata" : "zarr.json");
          for (const key of keys) {
            const exported = JSON.parse(await readFile(join(out, key), "utf8")) as Record<string, unknown>;
            const served = json(await store.get(`/${encodeURIComponent(id)}/${key}`));
            expect(withoutGrid(served), `${cf} ${id} ${key}`).toEqual(withoutGrid(exported));
          }
          for (const name of arrayNames(keys)) {
            const meta = json(
              await store.get(`/${encodeURIComponent(id)}/${name}/${version === 2 ? ".zarray" : "zarr.json"}`),
            );
            if (version === 2) expect(meta.compressor).toEqual({ id: "zlib", level: 1 });
            else expect(meta.codecs).toContainEqual({ name: "gzip", configuration: { level: 1 } });
          }
        }
      }
    });
  }

  it("example_1's chunks are its table rows (lat in 2s); a dataset in one row is one chunk", async () => {
    const store = await zarrStore(await open(tables[0]!.uri));
    expect(json(await store.get("/example_1.nc/temp/.zarray")).chunks).toEqual([1, 4, 2, 10]);
    expect(json(await store.get("/example_1.nc/lat/.zarray")).chunks).toEqual([2]);
    const points = json(await store.get("/binned_GSHHS_c.nc/Relative_longitude_from_SW_corner_of_bin/.zarray"));
    expect(points.chunks).toEqual(points.shape);
  });

  it("a dataset the export refuses (an attribute past JSON's integers) is InvalidInput naming it, as the export says", async () => {
    const uri = join(dir, "refused.lance");
    expect(cli(["import", join(FIXTURES, "ocean-nc4.nc"), uri]).code).toBe(0);
    // The file's group "extra" is a dataset of its own: the export takes the root's.
    const root = "__global_attrs__.id = 'ocean-nc4.nc'";
    const exported = cli(["export", uri, join(dir, "refused.zarr"), "--format", "zarr", "--where", root]);
    expect(exported.code).not.toBe(0);
    expect(exported.stderr).toContain("offset64");
    const store = await zarrStore(await open(uri));
    for (const key of ["/ocean-nc4.nc/.zmetadata", "/ocean-nc4.nc/sst/0.0.0"]) {
      const err = await failure(store.get(key));
      expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
      expect((err as Error).message).toContain('attribute "offset64" holds 9007199254740993');
    }
  });

  for (const version of [2, 3] as const) {
    for (const codec of ["none", "zlib"] as const) {
      it(`v${version} ${codec}: zarrita reads every array over the store as it reads the exported store`, async () => {
        for (const { cf, uri, ids } of tables) {
          const store = await zarrStore(await open(uri), { zarrVersion: version, codec });
          for (const id of ids) {
            const out = join(dir, `${cf}-${id}-v${version}.zarr`);
            if (!existsSync(out)) exportZarr(uri, id, out, version);
            const names = arrayNames(await metadataKeys(out));
            expect(names.length).toBeGreaterThan(0);
            for (const name of names) {
              const served = await zarr.open(zarr.root(store).resolve(`${encodeURIComponent(id)}/${name}`), {
                kind: "array",
              });
              const exported = await zarr.open(zarr.root(directoryStore(out)).resolve(name), { kind: "array" });
              const [a, b] = [await zarr.get(served), await zarr.get(exported)];
              expect(a.shape, `${cf} ${id} ${name}`).toEqual(b.shape);
              expect(Array.from(a.data as ArrayLike<unknown>), `${cf} ${id} ${name}`).toEqual(
                Array.from(b.data as ArrayLike<unknown>),
              );
            }
          }
        }
      });
    }
  }

  it.skipIf(pythonSkip)(
    "xarray (zarr-python 2) opens the store's bytes of a --cf raw table, consolidated, as it opens the netCDF file",
    async () => {
      // Raw tables keep the stored values, so xarray decodes both sides alike (--cf mask and decode also
      // mask values outside valid_range, as netCDF4-python does and xarray does not).
      for (const { cf, uri, ids } of tables.filter((t) => t.cf === "raw")) {
        const store = await zarrStore(await open(uri), { codec: "zlib" });
        for (const id of ids) {
          const out = join(dir, `served-${cf}-${id}.zarr`);
          await copyDataset(store, id, out);
          const report = runPython(["-c", XARRAY_ORACLE, out, FILES[id]]);
          expect(report.trim(), `${cf} ${id}`).toBe("equal");
        }
      }
    },
  );
});

/**
 * Compares xr.open_zarr (consolidated) of argv[1] with xr.open_dataset of
 * argv[2]: values, dims, coordinates and variable attributes. netCDF char
 * arrays are byte strings on both sides: xarray reads them as `|S<n>`, and
 * the store serves them as `|S<n>` (`@lance-nd/zarr` README, "Types").
 */
const XARRAY_ORACLE = `
import sys, xarray as xr, numpy as np
served = xr.open_zarr(sys.argv[1], consolidated=True).load()
source = xr.open_dataset(sys.argv[2]).load()
xr.testing.assert_equal(served, source)
for name, var in source.variables.items():
    for key, value in var.attrs.items():
        assert np.array_equal(np.asarray(served[name].attrs[key]), np.asarray(value)), (name, key)
print("equal")
`;

/** Writes every key of dataset `id` of `store` (v2) under `out`: its metadata, then every chunk of every array. */
async function copyDataset(store: ZarrStore, id: string, out: string): Promise<void> {
  const prefix = `/${encodeURIComponent(id)}`;
  const consolidated = json(await store.get(`${prefix}/.zmetadata`)).metadata as Record<
    string,
    { shape?: number[]; chunks?: number[] }
  >;
  const put = async (key: string, bytes: Uint8Array | undefined) => {
    expect(bytes, key).toBeDefined();
    await mkdir(dirname(join(out, key)), { recursive: true });
    await writeFile(join(out, key), bytes!);
  };
  await put(".zmetadata", await store.get(`${prefix}/.zmetadata`));
  for (const [key, doc] of Object.entries(consolidated)) {
    await put(key, await store.get(`${prefix}/${key}`));
    if (!key.endsWith("/.zarray")) continue;
    const name = key.slice(0, -"/.zarray".length);
    const counts = doc.shape!.map((size, d) => Math.ceil(size / doc.chunks![d]!));
    for (const index of chunkIndices(counts)) {
      const chunk = index.length === 0 ? "0" : index.join(".");
      await put(`${name}/${chunk}`, await store.get(`${prefix}/${name}/${chunk}`));
    }
  }
}

/** Every chunk index of a grid of `counts` chunks, C order. */
function* chunkIndices(counts: readonly number[]): Generator<number[]> {
  if (counts.some((n) => n === 0)) return;
  const index = counts.map(() => 0);
  for (;;) {
    yield [...index];
    let d = index.length - 1;
    for (; d >= 0; d--) {
      if (++index[d]! < counts[d]!) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}
