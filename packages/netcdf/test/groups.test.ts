/**
 * Groups of a netCDF-4 file (README, "Groups"): each opens as its own
 * dataset, as `xr.open_dataset(f, group=...)` reads it: its variables, its
 * attributes as the global ones, the parents' dims its variables use. The
 * file's group list is netCDF4-python's group walk. Each group, written
 * back as a file of its own, is `identical` to xarray's view of it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failure, ncgenCdl, runPython } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNetcdfError, openNetcdf, readNetcdf, writeNetcdf } from "../src/index.js";
import { fixtureSkipReason } from "./fixtures.js";
import { xarraySkipReason } from "./xarray-oracle.js";

const skip = fixtureSkipReason() ?? xarraySkipReason();

const WALK = `
import sys, netCDF4
def walk(g):
    for child in g.groups.values():
        yield child.path.lstrip("/")
        yield from walk(child)
with netCDF4.Dataset(sys.argv[1]) as f:
    print("\\n".join(walk(f)))
`;

const IDENTICAL = `
import sys, xarray as xr
with xr.open_dataset(sys.argv[1], group=sys.argv[2], decode_cf=False) as a, xr.open_dataset(sys.argv[3], decode_cf=False) as b:
    print("identical" if a.identical(b) else repr(a) + "\\n" + repr(b))
`;

describe.skipIf(skip !== undefined)(`netCDF-4 groups${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  let source: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-groups-"));
    source = ncgenCdl("groups", "nc4", dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the file lists its groups as netCDF4-python walks them; the root warns that it reads none of them", async () => {
    const file = await openNetcdf(source);
    try {
      expect(file.groups).toEqual(runPython(["-c", WALK, source]).trim().split("\n"));
      expect(file.variables.map((v) => v.name)).toEqual(["dim", "var"]);
      expect(file.warnings).toEqual([
        `${source}: groups are not read with the root group (open each by its path): "g1", "g3"`,
      ]);
    } finally {
      await file.close();
    }
  });

  it("each group read and written as a file of its own is identical to xr.open_dataset(f, group=...)", async () => {
    for (const group of ["g1", "g1/g2", "g3"]) {
      const out = join(dir, `${group.replace("/", "-")}.nc`);
      await writeNetcdf(out, await readNetcdf(source, { group }));
      expect(runPython(["-c", IDENTICAL, source, group, out]).trim(), group).toBe("identical");
    }
  });

  it("a group inherits the dims of its parents that its variables use", async () => {
    const file = await openNetcdf(source, { group: "g1/g2" });
    try {
      expect(file.dims.map((d) => [d.name, d.size])).toEqual([["n", 2]]);
      expect(file.globalAttrs.has("title")).toBe(false);
    } finally {
      await file.close();
    }
    const g1 = await openNetcdf(source, { group: "/g1/" });
    try {
      expect(g1.dims.map((d) => d.name)).toEqual(["dim", "n"]);
      expect(g1.globalAttrs.get("title")?.toJS()).toBe("in g1");
    } finally {
      await g1.close();
    }
  });

  it("a group that is not there is GroupNotFound listing the file's groups", async () => {
    const err = await failure(openNetcdf(source, { group: "g9" }));
    expect(isNetcdfError(err, "GroupNotFound"), String(err)).toBe(true);
    expect((err as Error).message).toBe(`${source}: no group "g9" in the file (its groups: g1, g1/g2, g3)`);
  });
});
