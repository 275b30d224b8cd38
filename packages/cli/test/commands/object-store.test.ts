/**
 * The command line on tables on object stores (CLI README, "Object
 * stores"): an S3-compatible server (s3rver) and Azure Blob Storage's
 * emulator (Azurite), each on 127.0.0.1, reached once with
 * `--storage-option`s alone and once with the environment alone. A netCDF
 * file goes in with `import`, comes back with `scan`, a region read and
 * `export` to a local file, which xarray reads as it reads the file;
 * `view` serves it. The servers are npm packages: under `CI=true` one that
 * does not start fails the tests; only a missing oracle (ncgen, xarray)
 * skips outside CI.
 */
import { join } from "node:path";
import { type ObjectStoreServer, startAzurite, startS3Server } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { pythonSkipReason, type XarrayDump, xarrayDump } from "../netcdf/oracle.js";
import { startServe } from "../serve/served.js";
import { send, startViewer } from "../view/viewer.js";
import { succeeded } from "./checked-runs.js";
import { cliAsync, ensureBuilt, storageFlags, tempDir } from "./harness.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();

/** This process's environment without any object store setting, so a run sees only what the test gives it. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(AWS|AZURE|GOOGLE)_/.test(key)));
}

/** The values of `variable` in the rows of `scan --json`, in row order. */
function scannedValues(stdout: string, variable: string): unknown[] {
  const rows = JSON.parse(stdout) as { arrays: Record<string, { values: unknown[] }> }[];
  return rows.flatMap((row) => row.arrays[variable]!.values);
}

/** An exported file holds what its source holds, as xarray reads both (`dumps`: xarray's reads of the two). */
function expectSameAsXarrayReads([source, exported]: XarrayDump[]): void {
  expect({ dims: exported!.dims, attrs: exported!.attrs }).toEqual({ dims: source!.dims, attrs: source!.attrs });
  expect(Object.keys(exported!.variables).sort()).toEqual(Object.keys(source!.variables).sort());
  for (const [name, v] of Object.entries(source!.variables)) {
    const w = exported!.variables[name]!;
    expect({ name, dims: w.dims, dtype: w.dtype, values: w.values, attrs: w.attrs }).toEqual({
      name,
      dims: v.dims,
      dtype: v.dtype,
      values: v.values,
      attrs: v.attrs,
    });
  }
}

const STORES: { name: string; start: () => Promise<ObjectStoreServer> }[] = [
  { name: "an S3-compatible server (s3rver)", start: () => startS3Server("cli") },
  { name: "Azure Blob Storage (Azurite)", start: () => startAzurite("cli") },
];

describe.skipIf(skip)("tables on object stores through the command line", () => {
  let dir: string;
  beforeAll(() => {
    ensureFixtures();
    ensureBuilt();
    dir = tempDir();
  });

  for (const store of STORES) {
    describe(store.name, () => {
      let server: ObjectStoreServer;
      beforeAll(async () => {
        server = await store.start();
      });
      afterAll(async () => {
        await server?.stop();
      });

      it("--storage-option alone: import, scan, a region read (--isel), export as xarray reads the file, view and serve", async () => {
        const table = `${server.root}/options/ocean.lance`;
        const flags = storageFlags(server.storageOptions);
        const run = (args: string[]) => cliAsync([...args, ...flags], undefined, cleanEnv());
        const imported = succeeded(
          await run(["import", fixture("ocean-nc4.nc"), table, "--chunk", "time=1", "--cf", "raw"]),
          "import",
        );
        // The file's 3 time steps and its group "extra" (a dataset of its own).
        expect(imported).toMatch(/as 4 rows into .*: version 1, 4 rows in the table/);

        const out = join(dir, `${server.root.slice(0, 2)}-options.nc`);
        const viewer = await startViewer(table, flags, cleanEnv());
        const served = await startServe(table, flags, cleanEnv());
        const [listed, region, exported, page, servedBase] = await Promise.all([
          run(["scan", table, "--project", "sst"]),
          run([
            "scan",
            table,
            "--project",
            "sst",
            "--where",
            "__global_attrs__.id = 'ocean-nc4.nc'",
            "--isel",
            "time=1,lat=1:3",
            "--json",
          ]),
          run(["export", table, out, "--where", "__global_attrs__.id = 'ocean-nc4.nc'"]),
          send(viewer, "/api/table", { "x-lance-nd-token": viewer.token }).finally(() => viewer.stop()),
          send(served, `/${served.token}/`).finally(() => served.stop()),
        ]);
        expect(succeeded(listed, "scan").trim().split("\n").at(-1)).toBe("4 rows");
        expect(page.status).toBe(200);
        expect(page.json()).toMatchObject({ uri: table, rows: 4 });
        // serve reaches the remote table: its base lists the dataset at the version imported.
        expect(served.datasets.map((d) => d.id)).toEqual(["ocean-nc4.nc", "ocean-nc4.nc/extra"]);
        expect(servedBase.status).toBe(200);
        expect(servedBase.json()).toMatchObject({ version: 1, datasets: ["ocean-nc4.nc", "ocean-nc4.nc/extra"] });
        succeeded(exported, "export");
        const dumps = xarrayDump(fixture("ocean-nc4.nc"), out);
        // sst[1, 1:3, :] of the file: time step 1 (20 cells on), lat rows 1 and 2 of 5 lon each.
        expect(scannedValues(succeeded(region, "scan --isel"), "sst")).toEqual(
          dumps[0]!.variables.sst!.values.slice(25, 35),
        );
        expectSameAsXarrayReads(dumps);
      });

      it("the environment alone: import, an append under its claim (marks on the store), a region read (--sel), check, export and view", async () => {
        const table = `${server.root}/env/ocean.lance`;
        const env = { ...cleanEnv(), ...server.env };
        const run = (args: string[]) => cliAsync(args, undefined, env);
        succeeded(await run(["import", fixture("ocean-nc4.nc"), table, "--cf", "raw"]), "import");
        succeeded(await run(["import", fixture("waves-nc4.nc"), table, "--mode", "append"]), "import --mode append");
        const out = join(dir, `${server.root.slice(0, 2)}-env.nc`);
        const viewer = await startViewer(table, [], env);
        const [region, checked, tags, exported, page] = await Promise.all([
          run([
            "scan",
            table,
            "--project",
            "swh",
            "--where",
            "__global_attrs__.id = 'waves-nc4.nc'",
            "--sel",
            "time=2000-04-30",
            "--json",
          ]),
          run(["check", table]),
          run(["tag", table, "--json"]),
          run(["export", table, out, "--where", "__global_attrs__.id = 'ocean-nc4.nc'"]),
          send(viewer, "/api/table", { "x-lance-nd-token": viewer.token }).finally(() => viewer.stop()),
        ]);
        // view serves the remote table: its three datasets (ocean-nc4.nc's group "extra" is one).
        expect(page.status).toBe(200);
        expect(page.json()).toMatchObject({ uri: table, rows: 3, bytes: null });
        expect((page.json().datasets as { id: string }[]).map((d) => d.id).sort()).toEqual([
          "ocean-nc4.nc",
          "ocean-nc4.nc/extra",
          "waves-nc4.nc",
        ]);
        expect(succeeded(checked, "check")).toMatch(/: ok$/m);
        // The claim's lock and mark were tags on the store; the import removed them.
        expect(JSON.parse(succeeded(tags, "tag"))).toEqual([]);
        succeeded(exported, "export");
        const [source, exportedDump, waves] = xarrayDump(fixture("ocean-nc4.nc"), out, fixture("waves-nc4.nc"));
        // swh[1, :, :] of the waves file: its second time step, 4 x 5 cells.
        expect(scannedValues(succeeded(region, "scan --sel"), "swh")).toEqual(
          waves!.variables.swh!.values.slice(20, 40),
        );
        expectSameAsXarrayReads([source!, exportedDump!]);
      });
    });
  }

  it("a --storage-option without a key or a = is one line naming the option, exit 2; nothing is read", async () => {
    for (const bad of ["endpoint", "=http://127.0.0.1:9000"]) {
      const run = await cliAsync(["scan", "s3://cli/any.lance", "--storage-option", bad], undefined, cleanEnv());
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `lance-nd: option '--storage-option <key=value>' argument '${bad}' is invalid. expected key=value, got "${bad}"\n`,
      );
    }
  });
});
