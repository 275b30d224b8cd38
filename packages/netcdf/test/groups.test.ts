/**
 * Groups of a netCDF-4 file (README, "Groups"): each opens as its own
 * dataset, as `xr.open_dataset(f, group=...)` reads it: its variables, its
 * attributes as the global ones, the parents' dims its variables use. The
 * file's group list is netCDF4-python's group walk. Each group, written
 * back as a file of its own, is `identical` to xarray's view of it; the
 * groups read one by one and written together are the file again (ncdump).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { failure, helperScript, ncdumpBody, ncgenCdl, runPython } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNetcdfError, openNetcdf, readNetcdf, writeNetcdf, writeNetcdfGroups } from "../src/index.js";
import { fixtureSkipReason } from "./fixtures.js";
import { xarraySkipReason } from "./xarray-oracle.js";

const skip = fixtureSkipReason() ?? xarraySkipReason();

/** The groups of a netCDF file as netCDF4-python walks them, one path a line. */
const WALK = helperScript("netcdf-groups.py");

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

  it(`the file lists its groups as netCDF4-python walks them; the root warns that it reads none of them, unless opened by the path ""`, async () => {
    const file = await openNetcdf(source);
    try {
      expect(file.groups).toEqual(runPython([WALK, source]).trim().split("\n"));
      expect(file.variables.map((v) => v.name)).toEqual(["dim", "var"]);
      expect(file.warnings).toEqual([
        `${source}: groups are not read with the root group (open each by its path): "g1", "g3"`,
      ]);
    } finally {
      await file.close();
    }
    const named = await openNetcdf(source, { group: "" });
    try {
      expect(named.warnings).toEqual([]);
    } finally {
      await named.close();
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

const IDENTICAL_GROUPS = `
import sys, xarray as xr
for group in sys.argv[3:]:
    with xr.open_dataset(sys.argv[1], group=group or None, decode_cf=False) as a, xr.open_dataset(sys.argv[2], group=group or None, decode_cf=False) as b:
        print(group + ": " + ("identical" if a.identical(b) else repr(a) + "\\n" + repr(b)))
`;

// The shapes of netCDF-C's ref_tst_group_data.cdl (dims shadowed at other sizes),
// ref_tst_solar_1.cdl (deep nesting, a root of attributes only) and ref_tst_names.cdl
// (spaces, punctuation and UTF-8 in names), and dims inherited from parents (groups.cdl).
const TREES = ["groups", "group-data", "group-solar", "group-names"];

describe.skipIf(skip !== undefined)(`netCDF-4 group trees written back${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-group-trees-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(TREES)(
    "%s: every group read and written back together is the file again (ncdump, xarray, group walk)",
    async (name) => {
      const source = ncgenCdl(name, "nc4", dir);
      const file = await openNetcdf(source);
      const groups = file.groups;
      await file.close();
      const tree = new Map<string, NdRecordBatch>();
      for (const group of ["", ...groups]) tree.set(group, await readNetcdf(source, { group }));
      const out = join(dir, `${name}-tree.nc`);
      await writeNetcdfGroups(out, tree);
      expect(ncdumpBody(out)).toBe(ncdumpBody(source));
      expect(runPython([WALK, out])).toBe(runPython([WALK, source]));
      expect(
        runPython(["-c", IDENTICAL_GROUPS, source, out, "", ...groups])
          .trim()
          .split("\n"),
      ).toEqual(["", ...groups].map((group) => `${group}: identical`));
    },
  );

  it("a group between two given ones is written empty; a classic file refuses groups", async () => {
    const source = ncgenCdl("groups", "nc4", dir);
    const out = join(dir, "deep.nc");
    await writeNetcdfGroups(out, new Map([["g1/g2", await readNetcdf(source, { group: "g1/g2" })]]));
    expect(runPython([WALK, out]).trim().split("\n")).toEqual(["g1", "g1/g2"]);
    expect(ncdumpBody(out)).toContain("group: g2 {\n    dimensions:\n    \tn = 2 ;");
    const err = await failure(
      writeNetcdfGroups(join(dir, "classic.nc"), new Map([["g1", await readNetcdf(source, { group: "g1" })]]), {
        format: "classic",
      }),
    );
    expect(isNetcdfError(err, "InvalidArgument"), String(err)).toBe(true);
    expect((err as Error).message).toBe(
      `${join(dir, "classic.nc")}: a classic netCDF file has no groups (write format netcdf4 for g1)`,
    );
  });
});
