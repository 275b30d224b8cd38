import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isZarrError, openZarr } from "../src/index.js";
import type { ZarrStore } from "../src/index.js";
import { fixtureStores, skipOracle } from "./python-oracle.js";
import { spelledAttrs, spelledValues } from "./spelled.js";

interface View {
  attrs: Record<string, unknown>;
  variables: Record<string, { dims: string[]; shape: number[]; values: unknown[]; attrs: Record<string, unknown> }>;
}

const v2 = fixtureStores<Record<string, View>>("xarray_v2_stores.py", "lance-nd-zarr-groups-v2-");
const v3 = fixtureStores<Record<string, { dims: string[]; shape: number[]; values: unknown[] }>>(
  "v3_spec_stores.py",
  "lance-nd-zarr-groups-v3-",
);

async function refused(path: string, options?: Parameters<typeof openZarr>[1]) {
  const err = await openZarr(path, options).catch((e: unknown) => e);
  expect(isZarrError(err), String(err)).toBe(true);
  return err as Error & { code: string; path?: string };
}

/** Every array of `store` against xarray's view: dims, shape, values and attributes. */
async function sameAsXarray(store: ZarrStore, view: View) {
  expect(store.variables.map((v) => v.name).sort()).toEqual(Object.keys(view.variables).sort());
  for (const [name, want] of Object.entries(view.variables)) {
    const got = await store.read(name);
    expect([got.dimNames, got.shape], name).toEqual([want.dims, want.shape]);
    expect(spelledValues(got), name).toEqual(want.values);
    expect(spelledAttrs(got.attrs), name).toEqual(want.attrs);
  }
}

describe.skipIf(skipOracle)("nested groups of a v2 store written by xarray and zarr-python", () => {
  it("the root has no arrays: NotFound naming every group by the path to open", async () => {
    const root = join(v2.dir, "nested.zarr");
    const err = await refused(root);
    expect([err.code, err.path]).toEqual(["NotFound", root]);
    expect(err.message).toContain(
      `no arrays in the root group; its groups are ${["extra", "model", "model/run1", "surface"].map((g) => `${root}/${g}`).join(", ")}`,
    );
  });

  for (const group of ["surface", "model/run1"]) {
    it(`{ group: "${group}" } and the group's directory open what xr.open_zarr(..., group=) shows`, async () => {
      const view = v2.expected[`nested.zarr/${group}`]!;
      const byOption = await openZarr(join(v2.dir, "nested.zarr"), { group });
      expect([byOption.group, byOption.path]).toEqual([group, join(v2.dir, "nested.zarr", group)]);
      expect(spelledAttrs(byOption.globalAttrs)).toEqual({ ...view.attrs, id: group.split("/").pop() });
      await sameAsXarray(byOption, view);
      const byPath = await openZarr(join(v2.dir, "nested.zarr", group));
      const described = (store: ZarrStore) => store.variables.map((v) => [v.name, String(v.type), v.dims, v.chunks]);
      expect([byPath.group, described(byPath)]).toEqual(["", described(byOption)]);
      await sameAsXarray(byPath, view);
    });
  }

  it("a group's own groups are listed; a group of groups alone opens by the option only; a missing group, an array or '..' is refused naming the groups", async () => {
    const root = join(v2.dir, "nested.zarr");
    expect((await openZarr(root, { group: "surface" })).groups).toEqual([]);
    const model = await refused(join(root, "model"));
    expect(model.message).toContain(`no arrays in the root group; its groups are ${root}/model/run1`);
    // Named by the option, a group of subgroups alone opens: its attributes, no variables.
    const named = await openZarr(root, { group: "model" });
    expect([named.variables.length, named.groups]).toEqual([0, ["run1"]]);
    for (const group of ["nope", "surface/temp"]) {
      const err = await refused(root, { group });
      expect(err.code, group).toBe("NotFound");
      expect(err.message, group).toContain(
        `no group "${group}" in the store (its groups: extra, model, model/run1, surface)`,
      );
    }
    expect((await refused(root, { group: "../cf.zarr" })).code).toBe("InvalidArgument");
    expect((await refused(join(v2.dir, "cf.zarr"), { group: "x" })).message).toContain("it has no groups");
  });
});

describe.skipIf(skipOracle)("nested groups of a v3 store written from the spec", () => {
  it("the root lists ocean, ocean/deep and empty; each group reads its own arrays and attributes", async () => {
    const root = join(v3.dir, "nested.zarr");
    const err = await refused(root);
    expect(err.message).toContain(`its groups are ${root}/empty, ${root}/ocean, ${root}/ocean/deep`);
    const ocean = await openZarr(root, { group: "ocean" });
    expect([ocean.format, ocean.groups, spelledAttrs(ocean.globalAttrs)]).toEqual([
      3,
      ["deep"],
      { title: "ocean", level: 1, id: "ocean" },
    ]);
    const deep = await openZarr(join(root, "ocean"), { group: "deep" });
    expect(spelledAttrs(deep.globalAttrs)).toEqual({ title: "deep", level: 2, id: "deep" });
    for (const [store, name] of [
      [ocean, "sst"],
      [deep, "salt"],
    ] as const) {
      const want = v3.expected[`nested/${store.group === "ocean" ? "ocean" : "ocean/deep"}/${name}`]!;
      expect(store.variables.map((v) => v.name)).toEqual([name]);
      const got = await store.read(name);
      expect([got.dimNames, got.shape, Array.from(got.values as Iterable<unknown>)]).toEqual([
        want.dims,
        want.shape,
        want.values,
      ]);
    }
    const empty = await openZarr(root, { group: "empty" });
    expect([empty.variables, empty.groups]).toEqual([[], []]);
  });
});
