/**
 * `sel` selects what xarray's `sel` selects (README "Datasets"), checked on
 * seeded coordinates against xarray itself (pandas' `Index` underneath):
 * exact values (a repeated value keeps every match and the dim), the
 * nearest value (a tie at a midpoint to the larger value, `tolerance`), and
 * slices in the coordinate's own order, on ascending and descending
 * coordinates cut into rows at seeded places.
 */
import { Float64 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { pythonSkipReason, runPython, seededRandom } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { isLanceNdError } from "../../src/errors.js";
import type { SelOptions, SelSpec } from "../../src/dataset/selection.js";
import { tempDir } from "../helpers/make-table.js";
import { writeChunked } from "./fixture.js";

/** One `sel` on dim `x`: a value (exact or nearest, maybe with a tolerance) or a slice. */
type Query =
  | { kind: "exact"; value: number }
  | { kind: "nearest"; value: number; tolerance?: number }
  | { kind: "slice"; start: number; stop: number };

/** What a selection gives: the `v` values (`v[i] = i`) and whether `x` is still a dim, or an error. */
type Outcome = { cells: number[]; kept: boolean } | "error";

// xarray's answer for each query on a DataArray v(x) = arange(n) with coordinate x.
const XARRAY = `import json, sys
import numpy as np, xarray as xr
cases = json.load(sys.stdin)
out = []
for case in cases:
    x = np.array(case["coord"], dtype="float64")
    da = xr.DataArray(np.arange(len(x), dtype="float64"), coords={"x": x}, dims="x")
    answers = []
    for q in case["queries"]:
        try:
            if q["kind"] == "slice":
                got = da.sel(x=slice(q["start"], q["stop"]))
            elif q["kind"] == "nearest":
                got = da.sel(x=q["value"], method="nearest", tolerance=q.get("tolerance"))
            else:
                got = da.sel(x=q["value"])
            answers.append({"cells": [int(c) for c in np.atleast_1d(got.values)], "kept": "x" in got.dims})
        except (KeyError, ValueError):
            answers.append("error")
    out.append(answers)
print(json.dumps(out))`;

const skip = pythonSkipReason("xarray oracle", ["xarray", "pandas"], "apt-get install python3-xarray");
const dir = tempDir("sel-xarray");

/** A seeded monotonic coordinate: steps of 0.5 to 2.5 (0 when `repeats`), ascending or descending. */
function coordinate(random: () => number, repeats: boolean): number[] {
  const n = 4 + Math.floor(random() * 30);
  const steps = [0.5, 1, 2.5, ...(repeats ? [0, 0] : [])];
  const values = [Math.round(random() * 20) - 10];
  for (let i = 1; i < n; i++) values.push(values[i - 1]! + steps[Math.floor(random() * steps.length)]!);
  return random() < 0.5 ? values : values.reverse();
}

/** Seeded queries on `coord`: its values, midpoints between neighbours (ties), points outside, and slices both ways. */
function queries(random: () => number, coord: readonly number[], repeats: boolean): Query[] {
  const pick = () => coord[Math.floor(random() * coord.length)]!;
  const between = () => {
    const k = Math.floor(random() * (coord.length - 1));
    return (coord[k]! + coord[k + 1]!) / 2;
  };
  const anywhere = () => Math.round((random() * 60 - 30) * 4) / 4;
  const out: Query[] = [];
  for (let i = 0; i < 8; i++) {
    out.push({ kind: "exact", value: i % 2 === 0 ? pick() : anywhere() });
    out.push({ kind: "slice", start: [pick, between, anywhere][i % 3]!(), stop: [anywhere, pick, between][i % 3]!() });
    // pandas refuses method="nearest" on repeated values: compared on coordinates without them.
    if (!repeats) {
      out.push({ kind: "nearest", value: i % 2 === 0 ? between() : anywhere() });
      out.push({ kind: "nearest", value: between(), tolerance: [0, 0.25, 1][i % 3]! });
    }
  }
  return out;
}

/** What lance-nd's `sel` gives for `query` on `ds` (a dataset of v(x)). */
async function lanceNd(ds: Awaited<ReturnType<typeof dataset>>, query: Query): Promise<Outcome> {
  const [spec, options]: [SelSpec, SelOptions] =
    query.kind === "slice"
      ? [{ x: [query.start, query.stop] }, {}]
      : query.kind === "nearest"
        ? [
            { x: query.value },
            query.tolerance === undefined ? { method: "nearest" } : { method: "nearest", tolerance: query.tolerance },
          ]
        : [{ x: query.value }, {}];
  try {
    const v = (await ds.sel(spec, options).read(["v"])).get("v")!;
    return { cells: Array.from(v.values as Iterable<number>), kept: v.shape.length === 1 };
  } catch (err) {
    if (isLanceNdError(err, "InvalidInput")) return "error";
    throw err;
  }
}

describe.skipIf(skip !== undefined)(`sel against xarray${skip ? ` (${skip})` : ""}`, () => {
  it("12 seeded coordinates (repeated values in half), cut into rows of 1 to 7 cells: every query as xarray", async () => {
    const random = seededRandom(2024);
    const cases = Array.from({ length: 12 }, (_, k) => {
      const repeats = k % 2 === 1;
      const coord = coordinate(random, repeats);
      return { coord, repeats, rows: 1 + Math.floor(random() * 7), queries: queries(random, coord, repeats) };
    });
    const want = JSON.parse(runPython(["-c", XARRAY], { input: JSON.stringify(cases) })) as Outcome[][];
    for (const [k, c] of cases.entries()) {
      const n = c.coord.length;
      const batch = new NdRecordBatch(
        {
          v: NdArray.from(
            Float64Array.from({ length: n }, (_, i) => i),
            { dims: { x: n }, type: new Float64() },
          ),
          x: NdArray.from(Float64Array.from(c.coord), { dims: { x: n } }),
        },
        { id: `case${k}.nc` },
      );
      const ds = await dataset(await writeChunked(`${dir}/case${k}.lance`, batch, { x: c.rows }));
      for (const [q, query] of c.queries.entries())
        expect(await lanceNd(ds, query), `x = [${c.coord}], ${JSON.stringify(query)}`).toEqual(want[k]![q]);
    }
  });
});
