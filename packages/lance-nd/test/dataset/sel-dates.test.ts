/**
 * Date texts in `sel` select as pandas' partial string indexing does, in the
 * coordinate's own calendar (README "Datasets"): a date coarser than the
 * values is its whole period (the dim kept), a full timestamp one instant
 * (the dim dropped), a slice's stop covers its whole period, and a date the
 * calendar lacks is refused naming the calendar. Checked against xarray on
 * daily data stamped at noon, decoded by xarray itself (cftime for the
 * calendars other than standard).
 */
import { Float64 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { isLanceNdError } from "../../src/errors.js";
import type { SelOptions, SelSpec } from "../../src/dataset/selection.js";
import { tempDir } from "../helpers/make-table.js";
import { sstBatch, writeChunked } from "./fixture.js";

const DAYS = 800;
const CALENDARS = ["standard", "noleap", "360_day", "all_leap", "julian"] as const;

/** A query: a date, a slice of two dates, or a date with method nearest. */
type Query = { time: string | [string, string]; nearest?: boolean };

const QUERIES: Query[] = [
  { time: "2001-03-01" },
  { time: "2001-03" },
  { time: "2001" },
  { time: "2001-02" },
  { time: "2001-03-01T12:00" },
  { time: "2001-03-01T13:00" },
  { time: "2001-02-29" },
  { time: "2001-02-30" },
  { time: ["2001-02-27", "2001-03-01"] },
  { time: ["2001-03-01", "2001-03-31"] },
  { time: ["2001-03-05", "2001-03-01"] },
  { time: ["2001-02", "2001-03-02T06"] },
];

const NEAREST: Query[] = [
  { time: "2001-03-01", nearest: true },
  { time: "2001-02-28T18:00", nearest: true },
];

type Outcome = { cells: number[]; kept: boolean } | "error";

// xarray's answer for each query on v(time) = arange(n), time decoded from "days since 2000-01-01" at noon.
const XARRAY = `import json, sys
import numpy as np, xarray as xr
days, calendar, queries = json.load(sys.stdin)
raw = xr.Dataset({"v": ("time", np.arange(days, dtype="float64"))},
                 coords={"time": ("time", np.arange(days) + 0.5, {"units": "days since 2000-01-01", "calendar": calendar})})
da = xr.decode_cf(raw, use_cftime=calendar != "standard")["v"]
out = []
for q in queries:
    t = q["time"]
    try:
        if isinstance(t, list):
            got = da.sel(time=slice(t[0], t[1]))
        elif q.get("nearest"):
            got = da.sel(time=t, method="nearest")
        else:
            got = da.sel(time=t)
        out.append({"cells": [int(c) for c in np.atleast_1d(got.values)], "kept": "time" in got.dims})
    except (KeyError, ValueError):
        out.append("error")
print(json.dumps(out))`;

const skip = pythonSkipReason("xarray oracle", ["xarray", "cftime"], "apt-get install python3-xarray python3-cftime");
const dir = tempDir("sel-dates");
let tables = 0;

/** v(time) = index, time in "days since 2000-01-01" of `calendar` at noon, rows of 50 days. */
async function noonDays(calendar: string) {
  const batch = new NdRecordBatch(
    {
      v: NdArray.from(
        Float64Array.from({ length: DAYS }, (_, i) => i),
        { dims: { time: DAYS }, type: new Float64() },
      ),
      time: NdArray.from(
        Float64Array.from({ length: DAYS }, (_, i) => i + 0.5),
        { dims: { time: DAYS }, attrs: { units: "days since 2000-01-01", calendar } },
      ),
    },
    { id: `${calendar}.nc` },
  );
  return dataset(await writeChunked(`${dir}/${calendar}-${tables++}.lance`, batch, { time: 50 }));
}

async function lanceNd(ds: Awaited<ReturnType<typeof noonDays>>, query: Query): Promise<Outcome> {
  const options: SelOptions = query.nearest ? { method: "nearest" } : {};
  try {
    const v = (await ds.sel({ time: query.time } as SelSpec, options).read(["v"])).get("v")!;
    return { cells: Array.from(v.values as Iterable<number>), kept: v.shape.length === 1 };
  } catch (err) {
    if (isLanceNdError(err, "InvalidInput")) return "error";
    throw err;
  }
}

describe.skipIf(skip !== undefined)(`sel on dates against xarray${skip ? ` (${skip})` : ""}`, () => {
  for (const calendar of CALENDARS) {
    it(`${calendar}: partial dates, timestamps and slices select the days xarray selects`, async () => {
      const ds = await noonDays(calendar);
      const queries = calendar === "standard" ? [...QUERIES, ...NEAREST] : QUERIES;
      const want = JSON.parse(
        runPython(["-c", XARRAY], { input: JSON.stringify([DAYS, calendar, queries]) }),
      ) as Outcome[];
      for (const [k, query] of queries.entries()) {
        const got = await lanceNd(ds, query);
        const expected = want[k]!;
        // xarray's cftime index takes every date text as a period: a full timestamp keeps the dim there and one
        // that matches nothing selects nothing; pandas' rule (lance-nd's on every calendar) drops the dim or refuses.
        const comparable =
          calendar === "standard" || expected === "error"
            ? expected
            : got === "error" && expected.cells.length === 0
              ? "error"
              : { ...expected, kept: got === "error" ? expected.kept : got.kept };
        expect(got, `${calendar} ${JSON.stringify(query)}`).toEqual(comparable);
      }
    });
  }

  it("a date the calendar lacks names the calendar; 30 February of 360_day is a day like any other", async () => {
    const message = async (calendar: string, time: string) => {
      const err = await (await noonDays(calendar))
        .sel({ time })
        .read(["v"])
        .catch((e: unknown) => e);
      return isLanceNdError(err, "InvalidInput") ? err.message : String(err);
    };
    expect(await message("noleap", "1900-02-29")).toMatch(
      /sel: "time": 1900-02-29 is not a date of the noleap calendar$/,
    );
    expect(await message("360_day", "1900-02-31")).toMatch(/1900-02-31 is not a date of the 360_day calendar$/);
    expect(await message("standard", "2001-13")).toMatch(/2001-13-01 is not a date of the standard calendar$/);
    expect(await message("standard", "March 2001")).toMatch(
      /"March 2001" on time coordinate "time" is not an ISO date/,
    );
    const day = await (await noonDays("360_day")).sel({ time: "2001-02-30" }).read(["v", "time"]);
    expect([day.get("v")!.shape, Array.from(day.get("time")!.values)]).toEqual([[1], [419.5]]);
  });

  it("on a timestamp coordinate at midnight a day is one instant (the dim dropped), a month every day of it", async () => {
    const ds = await dataset(await writeChunked(`${dir}/timestamps.lance`, sstBatch(), { time: 5 }));
    const day = await ds.sel({ time: "2000-01-03" }).read(["sst"]);
    const month = await ds.sel({ time: "2000-01" }).read(["sst"]);
    const slice = await ds.sel({ time: ["2000-01-02", "2000-01-04"] }).read(["sst"]);
    expect([day.get("sst")!.shape, month.get("sst")!.shape, slice.get("sst")!.shape]).toEqual([
      [10, 8],
      [12, 10, 8],
      [3, 10, 8],
    ]);
  });
});
