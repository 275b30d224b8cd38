/**
 * Groups (CLI README, "Groups"): a netCDF-4 file or a Zarr store with
 * groups imports, with default options, as one dataset per group (id
 * `<file id>/<group path>`), and `export --groups` writes such a tree back:
 * the netCDF export's `ncdump` is the source's, each group is `identical`
 * under `xr.open_dataset(f, group=...)` and netCDF4-python walks the same
 * groups; a Zarr tree comes back as zarr-python 2.13 (v2) and zarrita (v3)
 * read the source's groups.
 */
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { helperScript, ncdumpBody, ncgenCdl, runPython } from "@lance-nd/test-helpers";
import * as zarr from "zarrita";
import { beforeAll, describe, expect, it } from "vitest";
import { cliQuiet } from "./checked-runs.js";
import { fixtureSkipReason } from "../fixtures.js";
import { pythonSkipReason } from "../netcdf/oracle.js";
import { cli, cliJson, ensureBuilt, tempDir } from "./harness.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();

/** The groups of a netCDF file as netCDF4-python walks them, one path a line. */
const WALK = helperScript("netcdf-groups.py");

/** For each group (`""` the root), `<group>: identical` when xarray reads it the same from both files (or stores). */
const IDENTICAL_GROUPS = `
import sys, xarray as xr
open_group = xr.open_zarr if sys.argv[1] == "zarr" else xr.open_dataset
for group in sys.argv[4:]:
    with open_group(sys.argv[2], group=group or None) as a, open_group(sys.argv[3], group=group or None) as b:
        print(group + ": " + ("identical" if a.identical(b) else repr(a) + "\\n" + repr(b)))
`;

/** Writes a Zarr v2 tree with zarr-python and xarray: a root of attributes only, a group of attributes and subgroups, arrays below. */
const ZARR_TREE = `
import sys, numpy as np, xarray as xr, zarr
path = sys.argv[1]
root = zarr.open_group(path, mode="w")
root.attrs["title"] = "a tree"
root.create_group("solar_system").attrs["moons"] = 1
xr.Dataset({"radius": ("moon", np.array([11.3, 6.2]))}, attrs={"planet": "Mars"}).to_zarr(path, group="solar_system/Mars", mode="a")
xr.Dataset({"w": (("n", "x"), np.arange(6, dtype="i2").reshape(2, 3))}).to_zarr(path, group="solar_system/Mars/deep", mode="a")
zarr.consolidate_metadata(path)
`;

const CDL_TREES = ["groups", "group-data", "group-solar", "group-names"];

function walk(path: string): string[] {
  return runPython([WALK, path])
    .split("\n")
    .filter((line) => line !== "");
}

function idsOf(table: string): string[] {
  return cliJson<{ globalAttrs: { id: string } }[]>(["scan", table]).map((row) => row.globalAttrs.id);
}

describe.skipIf(skip !== undefined)(`groups${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it.each(CDL_TREES)(
    "%s: each group a dataset; export --groups is the file again (ncdump, xarray, group walk)",
    (name) => {
      const source = ncgenCdl(name, "nc4", dir);
      const groups = walk(source);
      const table = join(dir, `${name}.lance`);
      cliQuiet(["import", source, table]);
      const id = `${name}-nc4.nc`;
      expect(idsOf(table)).toEqual([id, ...groups.map((group) => `${id}/${group}`)]);
      const out = join(dir, `${name}-tree.nc`);
      cliQuiet(["export", table, out, "--groups", "--where", `__global_attrs__.id = '${id}'`]);
      expect(ncdumpBody(out)).toBe(ncdumpBody(source));
      expect(walk(out)).toEqual(groups);
      expect(
        runPython(["-c", IDENTICAL_GROUPS, "netcdf", source, out, "", ...groups])
          .trim()
          .split("\n"),
      ).toEqual(["", ...groups].map((group) => `${group}: identical`));
    },
  );

  it("a group is a dataset of its own: its variables, its attributes, the dims it inherits", () => {
    const source = ncgenCdl("groups", "nc4", dir);
    const table = join(dir, "one-group.lance");
    cliQuiet(["import", source, table]);
    const [row] = cliJson<{ globalAttrs: Record<string, unknown>; arrays: Record<string, { dims: unknown }> }[]>([
      "scan",
      table,
      "--where",
      "__global_attrs__.id = 'groups-nc4.nc/g1'",
    ]);
    expect(row!.globalAttrs.title).toBe("in g1");
    expect(Object.keys(row!.arrays)).toEqual(["var", "w"]);
    expect(row!.arrays.w!.dims).toEqual([
      { name: "n", size: 2 },
      { name: "dim", size: 4 },
    ]);
    const out = join(dir, "g1.nc");
    cliQuiet(["export", table, out, "--where", "__global_attrs__.id = 'groups-nc4.nc/g1'"]);
    const flat =
      "import sys, xarray as xr; print(xr.open_dataset(sys.argv[1]).identical(xr.open_dataset(sys.argv[2], group='g1')))";
    expect(runPython(["-c", flat, out, source]).trim()).toBe("True");
  });

  it("export --groups takes the tree a LIKE filter selects; rows that are not one tree, or a narrowed export, are refused", () => {
    const source = ncgenCdl("group-data", "nc4", dir);
    const table = join(dir, "like.lance");
    cliQuiet(["import", source, table]);
    const out = join(dir, "like.nc");
    cliQuiet(["export", table, out, "--groups", "--where", "__global_attrs__.id LIKE 'group-data-nc4.nc%'"]);
    expect(ncdumpBody(out)).toBe(ncdumpBody(source));

    const other = ncgenCdl("groups", "nc4", dir);
    cliQuiet(["import", other, table, "--mode", "append"]);
    const mixed = cli([
      "export",
      table,
      join(dir, "mixed.nc"),
      "--groups",
      "--where",
      "__global_attrs__.id LIKE '%g1'",
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain(
      "--groups: the rows of --where __global_attrs__.id LIKE '%g1' are not one tree of groups (ids groups-nc4.nc/g1, group-data-nc4.nc/g1)",
    );
    const narrowed = cli(["export", table, join(dir, "narrowed.nc"), "--groups", "--isel", "dim=0"]);
    expect(narrowed.code).toBe(1);
    expect(narrowed.stderr).toContain(
      "--groups writes whole datasets (each group has its own dims and variables): leave out --isel",
    );
  });

  it("a Zarr v2 tree (zarr-python) imports group by group and exports as v2 (zarr-python 2.13) and v3 (zarrita) trees", async () => {
    const source = join(dir, "tree.zarr");
    runPython(["-c", ZARR_TREE, source]);
    const groups = ["solar_system", "solar_system/Mars", "solar_system/Mars/deep"];
    const table = join(dir, "zarr-tree.lance");
    cliQuiet(["import", source, table]);
    expect(idsOf(table)).toEqual(["tree.zarr", ...groups.map((group) => `tree.zarr/${group}`)]);

    const v2 = join(dir, "tree-v2.zarr");
    cliQuiet(["export", table, v2, "--format", "zarr", "--groups", "--where", "__global_attrs__.id = 'tree.zarr'"]);
    expect(
      runPython(["-c", IDENTICAL_GROUPS, "zarr", source, v2, "", ...groups])
        .trim()
        .split("\n"),
    ).toEqual(["", ...groups].map((group) => `${group}: identical`));

    const v3 = join(dir, "tree-v3.zarr");
    cliQuiet([
      "export",
      table,
      v3,
      "--format",
      "zarr",
      "--zarr-version",
      "3",
      "--groups",
      "--where",
      "__global_attrs__.id = 'tree.zarr'",
    ]);
    const read = async (kind: "v2" | "v3", path: string, node: string) => {
      const location = zarr.root(new FileSystemStore(path)).resolve(node);
      return kind === "v2" ? zarr.open.v2(location, { kind: "array" }) : zarr.open.v3(location, { kind: "array" });
    };
    for (const node of ["solar_system/Mars/radius", "solar_system/Mars/deep/w"]) {
      const [a, b] = [await read("v2", source, node), await read("v3", v3, node)];
      expect(b.shape, node).toEqual(a.shape);
      expect(Array.from((await zarr.get(b)).data as ArrayLike<number>), node).toEqual(
        Array.from((await zarr.get(a)).data as ArrayLike<number>),
      );
    }
    const mars = await zarr.open.v3(zarr.root(new FileSystemStore(v3)).resolve("solar_system/Mars"), { kind: "group" });
    expect(mars.attrs).toEqual({ planet: "Mars" });
    const root = await zarr.open.v3(zarr.root(new FileSystemStore(v3)), { kind: "group" });
    expect(root.attrs).toEqual({ title: "a tree" });
  });
});
