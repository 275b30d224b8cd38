/**
 * Cross-check of broadcast and flatten with xarray. The reference results
 * are in fixtures/xarray-broadcast.json, made by scripts/xarray-fixtures.py
 * (see there to regenerate); this test needs no Python.
 */
import { readFileSync } from "node:fs";
import { Bool, Float32, Float64, Int16, Int32, Int64, Utf8 } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { broadcast } from "../src/broadcast.js";
import { NdRecordBatch } from "../src/batch.js";
import { flatten } from "../src/flatten.js";
import { NdArray } from "../src/ndarray.js";

interface FixtureArray {
  name: string;
  dims: [string, number][];
  type: string;
  values: unknown[];
}

interface FixtureDataset {
  name: string;
  arrays: FixtureArray[];
  grid: [string, number][];
  broadcast: Record<string, unknown[]>;
  flatten: Record<string, unknown[]>;
}

const fixture = JSON.parse(readFileSync(new URL("fixtures/xarray-broadcast.json", import.meta.url), "utf8")) as {
  datasets: FixtureDataset[];
};

const types: Record<string, () => DataType> = {
  Float64: () => new Float64(),
  Float32: () => new Float32(),
  Int64: () => new Int64(),
  Int32: () => new Int32(),
  Int16: () => new Int16(),
  Bool: () => new Bool(),
  Utf8: () => new Utf8(),
};

/** Values as plain JS numbers for comparison (Int64 comes back as bigint). */
function plain(values: Iterable<unknown>): unknown[] {
  return Array.from(values, (v) => (typeof v === "bigint" ? Number(v) : v));
}

function batchOf(ds: FixtureDataset): NdRecordBatch {
  return new NdRecordBatch(
    ds.arrays.map((a): [string, NdArray] => [
      a.name,
      NdArray.from(
        a.values.map((v) => (a.type === "Int64" && typeof v === "number" ? BigInt(v) : v)),
        { dims: a.dims, type: types[a.type]!() },
      ),
    ]),
  );
}

describe("xarray cross-check", () => {
  it("the fixture holds datasets", () => {
    expect(fixture.datasets.length).toBeGreaterThanOrEqual(3);
  });

  for (const ds of fixture.datasets) {
    describe(ds.name, () => {
      const batch = batchOf(ds);

      it("the batch grid is the fixture grid", () => {
        expect(batch.grid().map((d) => [d.name, d.size])).toEqual(ds.grid);
      });

      it("broadcast of every array to the grid equals xr.broadcast (transposed to the grid)", () => {
        for (const [name, array] of batch.arrays()) {
          expect(plain(broadcast(array, ds.grid).values), name).toEqual(ds.broadcast[name]);
        }
      });

      it("flatten equals to_dataframe(dim_order=grid).reset_index(), column by column", () => {
        const table = flatten(batch);
        expect(table.schema.names).toEqual(Object.keys(ds.flatten));
        for (const [name, values] of Object.entries(ds.flatten)) {
          expect(plain(table.getChild(name)!), name).toEqual(values);
        }
      });
    });
  }
});
