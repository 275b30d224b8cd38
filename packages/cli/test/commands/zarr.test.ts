/**
 * `lance-nd import` of Zarr stores and `lance-nd export --format zarr`, run
 * through the built CLI against stores written by xarray's `to_zarr`
 * (Debian's python3-zarr, v2) and checked with xarray itself. The stores and
 * oracles are packages/zarr's fixture scripts, called by path.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STORAGE_ATTRS } from "@lance-nd/netcdf";
import { boundByFileModes, fileModesSkipReason, pythonSkipReason, runPython, skipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, cli, ensureBuilt, tableState, tempDir } from "./harness.js";

const SCRIPTS = join(import.meta.dirname, "..", "..", "..", "zarr", "fixtures");
const EXAMPLE_NC = "/usr/lib/python3/dist-packages/xarray/tests/data/example_1.nc";

const skip =
  (pythonSkipReason("zarr CLI tests", ["numpy", "xarray", "zarr"], "apt-get install python3-xarray python3-zarr") ??
    skipReason(existsSync(EXAMPLE_NC) ? undefined : `zarr CLI tests skipped: ${EXAMPLE_NC} is missing`)) !== undefined;

function python(script: string, ...args: string[]): string {
  return runPython([join(SCRIPTS, script), ...args]);
}

interface XarrayView {
  attrs: Record<string, unknown>;
  variables: Record<string, { dims: string[]; shape: number[]; values: unknown[]; attrs: Record<string, unknown> }>;
}
interface JsonRow {
  globalAttrs: Record<string, unknown>;
  arrays: Record<
    string,
    { type: string; dims: { name: string; size: number }[]; attrs: Record<string, unknown>; values: unknown[] }
  >;
}

function scanJson(table: string): JsonRow[] {
  // The stored numbers, as xarray shows them with decode_cf=False (CF times too: --time-numbers), and every attribute.
  const run = cli(["scan", table, "--json", "--time-numbers", "--all-attrs"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as JsonRow[];
}

/** A scanned JSON value as xarray_view.py spells it (NaN and infinities as strings, 64-bit integers as numbers). */
function spelled(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  if (value === null) return "NaN";
  if (Array.isArray(value)) return value.map(spelled);
  return value;
}

describe.skipIf(skip)("lance-nd import / export with Zarr stores", () => {
  let dir: string;
  let stores: string;
  let expected: Record<string, XarrayView>;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    stores = join(dir, "stores");
    mkdirSync(stores);
    python("xarray_v2_stores.py", stores);
    expected = JSON.parse(execFileSync("cat", [join(stores, "expected.json")], { encoding: "utf8" })) as Record<
      string,
      XarrayView
    >;
  });

  it.each(["example_1.zarr", "cf.zarr"])(
    "a store written by xarray's to_zarr (%s) imports with --cf raw as xarray shows it, value by value",
    (name) => {
      const table = join(dir, `${name}.lance`);
      const run = cli(["import", join(stores, name), table, "--cf", "raw"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/as 1 row into/);
      const rows = scanJson(table);
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      const view = expected[name]!;
      expect(row.globalAttrs.id).toBe(name);
      for (const [key, value] of Object.entries(view.attrs)) expect(spelled(row.globalAttrs[key]), key).toEqual(value);
      expect(Object.keys(row.arrays).sort()).toEqual(Object.keys(view.variables).sort());
      for (const [varName, v] of Object.entries(view.variables)) {
        const got = row.arrays[varName]!;
        expect(
          got.dims.map((d) => d.name),
          varName,
        ).toEqual(v.dims);
        expect(
          got.dims.map((d) => d.size),
          varName,
        ).toEqual(v.shape);
        expect(spelled(got.values), varName).toEqual(v.values);
        for (const [key, value] of Object.entries(v.attrs))
          expect(spelled(got.attrs[key]), `${varName}/${key}`).toEqual(value);
      }
    },
  );

  it.each(["example_1.zarr", "cf.zarr"])(
    "export --format zarr --zarr-version 2 of an imported store: xr.open_zarr sees the original dataset (%s)",
    (name) => {
      const table = join(dir, `again-${name}.lance`);
      expect(cli(["import", join(stores, name), table, "--cf", "raw"]).code).toBe(0);
      const out = join(dir, `v2-${name}`);
      const run = cli(["export", table, out, "--format", "zarr", "--zarr-version", "2", "--json"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ file: out, format: "zarr", rows: 1 });
      expect(JSON.parse(python("xarray_same.py", join(stores, name), out))).toEqual({ identical: true });
    },
  );

  it("netCDF -> table -> Zarr (v3, zstd) -> table gives the same rows, without the netCDF storage attributes", () => {
    const first = join(dir, "nc.lance");
    expect(cli(["import", EXAMPLE_NC, first]).code).toBe(0);
    const out = join(dir, "from-nc.zarr");
    const exported = cli(["export", first, out, "--format", "zarr", "--zarr-version", "3"]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    expect(existsSync(join(out, "zarr.json"))).toBe(true);
    const second = join(dir, "back.lance");
    const imported = cli(["import", out, second, "--id", "example_1.nc"]);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    const [a] = scanJson(first);
    const [b] = scanJson(second);
    const withoutStorage = (attrs: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(attrs).filter(([key]) => !STORAGE_ATTRS.has(key)));
    expect(Object.keys(a!.globalAttrs).some((key) => STORAGE_ATTRS.has(key))).toBe(true);
    expect(b!.arrays).toEqual(
      Object.fromEntries(
        Object.entries(a!.arrays).map(([name, array]) => [name, { ...array, attrs: withoutStorage(array.attrs) }]),
      ),
    );
    const { chunk_offset: _offset, ...globals } = b!.globalAttrs;
    expect(globals).toEqual(withoutStorage(a!.globalAttrs));
  });

  it("bad input is exit 1 with one line and leaves no table; a bad store among several writes nothing", () => {
    const notStore = join(dir, "empty.zarr");
    mkdirSync(notStore);
    for (const input of [notStore, join(stores, "complex.zarr"), join(stores, "structured.zarr")]) {
      const table = join(dir, "never.lance");
      const run = cli(["import", input, table]);
      expect(run.code, input).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n"), input).toHaveLength(1);
      expect(run.stderr).toMatch(/^lance-nd: cannot import into .*never\.lance \(/);
      expect(existsSync(table), input).toBe(false);
    }
    expect(cli(["import", join(stores, "complex.zarr"), join(dir, "t.lance")]).stderr).toMatch(
      /complex.*nd-arrow has no complex type/,
    );

    const table = join(dir, "kept.lance");
    expect(cli(["import", join(stores, "example_1.zarr"), table]).code).toBe(0);
    const before = tableState(table);
    for (const mode of ["append", "replace", "overwrite"]) {
      const run = cli(["import", join(stores, "cf.zarr"), join(stores, "complex.zarr"), table, "--mode", mode]);
      expect(run.code, mode).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(tableState(table), mode).toEqual(before);
    }
    const badChunk = cli(["import", join(stores, "cf.zarr"), join(dir, "chunk.lance"), "--chunk", "depth=2"]);
    expect(badChunk.code).toBe(1);
    expect(badChunk.stderr).toMatch(/cannot cut rows along "depth"/);
    expect(existsSync(join(dir, "chunk.lance"))).toBe(false);
  });

  it.skipIf(fileModesSkipReason(import.meta.filename) !== undefined)(
    "a store whose directory cannot be listed fails naming it and the cause; --mode replace keeps the rows",
    () => {
      // Root lists any directory: the runs go bound by file modes then (test-helpers' boundByFileModes).
      const run = (args: string[]) => {
        const [command, ...rest] = boundByFileModes([process.execPath, CLI, ...args]);
        const child = spawnSync(command!, rest, { encoding: "utf8" });
        return { code: child.status, stderr: child.stderr };
      };
      const shared = mkdtempSync(join(tmpdir(), "lance-nd-unlistable-"));
      const store = join(shared, "example_1.zarr");
      cpSync(join(stores, "example_1.zarr"), store, { recursive: true });
      rmSync(join(store, ".zmetadata"), { force: true }); // unconsolidated: the arrays are found by listing
      const table = join(shared, "kept.lance");
      try {
        expect(run(["import", store, table]).code).toBe(0);
        const before = tableState(table);
        chmodSync(store, 0o311); // files open by name, the directory cannot be read
        for (const args of [
          [store, table, "--mode", "replace"],
          [store, join(shared, "new.lance")],
        ]) {
          const refused = run(["import", ...args]);
          expect(refused.code, args.join(" ")).toBe(1);
          expect(refused.stderr.trim().split("\n")).toHaveLength(1);
          expect(refused.stderr).toContain(`${store}: cannot list "." (EACCES)`);
        }
        expect(tableState(table)).toEqual(before);
        expect(existsSync(join(shared, "new.lance"))).toBe(false);
      } finally {
        chmodSync(store, 0o755);
        rmSync(shared, { recursive: true, force: true });
      }
    },
  );

  it("--chunk cuts a store into rows with chunk_offset; export assembles them back", () => {
    const table = join(dir, "chunked.lance");
    const run = cli(["import", join(stores, "cf.zarr"), table, "--chunk", "time=2", "--cf", "raw", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ rows: 3, totalRows: 3 });
    const offsets = scanJson(table).map((row) => row.globalAttrs.chunk_offset);
    expect(offsets).toEqual([
      [0, 0, 0],
      [2, 0, 0],
      [4, 0, 0],
    ]);
    const out = join(dir, "chunked-v2.zarr");
    expect(cli(["export", table, out, "--format", "zarr", "--zarr-version", "2", "--chunks", "time=2"]).code).toBe(0);
    expect(JSON.parse(python("xarray_same.py", join(stores, "cf.zarr"), out))).toEqual({ identical: true });
  });

  it("nested groups: the root imports as a dataset per group; a group's path imports it as xr.open_zarr(group=) shows", () => {
    const root = join(stores, "nested.zarr");
    // Its groups' `lat` are of two types, one column of the table: --casting safe widens them.
    const tree = cli(["import", root, join(dir, "nested.lance"), "--casting", "safe"]);
    expect(tree.stderr).toBe("");
    expect(tree.code).toBe(0);
    expect(scanJson(join(dir, "nested.lance")).map((row) => row.globalAttrs.id)).toEqual(
      ["", "/extra", "/model", "/model/run1", "/surface"].map((group) => `nested.zarr${group}`),
    );

    for (const group of ["surface", "model/run1"]) {
      const table = join(dir, `${group.replace("/", "-")}.lance`);
      const run = cli(["import", join(root, ...group.split("/")), table, "--cf", "raw"]);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const [row] = scanJson(table);
      expect(row!.globalAttrs.id).toBe(group.split("/").pop());
      const view = expected[`nested.zarr/${group}`]!;
      expect(Object.keys(row!.arrays).sort(), group).toEqual(Object.keys(view.variables).sort());
      for (const [name, v] of Object.entries(view.variables))
        expect(spelled(row!.arrays[name]!.values), `${group}/${name}`).toEqual(v.values);
    }

    const v3 = join(dir, "v3");
    mkdirSync(v3);
    python("v3_spec_stores.py", v3);
    const deep = join(dir, "deep.lance");
    expect(cli(["import", join(v3, "nested.zarr", "ocean", "deep"), deep, "--json"]).code).toBe(0);
    const [row] = scanJson(deep);
    expect([row!.globalAttrs.id, row!.globalAttrs.title, row!.arrays.salt!.values]).toEqual([
      "deep",
      "deep",
      [35, 36, 37],
    ]);
  });

  it("the README's Zarr examples run as typed in bash (after the demo)", () => {
    const sandbox = join(dir, "readme");
    const bin = join(sandbox, ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "lance-nd"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, "lance-nd"), 0o755);
    expect(cli(["demo"], sandbox).code).toBe(0);
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const lines = /### Zarr\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!.trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const example of lines) {
      const run = spawnSync("bash", ["-c", example], {
        cwd: sandbox,
        encoding: "utf8",
        env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
      });
      expect({ example, code: run.status, stderr: run.stderr }).toEqual({ example, code: 0, stderr: "" });
    }
    expect(existsSync(join(sandbox, "ocean-v2.zarr", ".zmetadata"))).toBe(true);
  });
});
