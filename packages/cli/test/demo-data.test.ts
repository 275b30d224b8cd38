import { describe, expect, it } from "vitest";
import { oceanDemo } from "../src/demo-data.js";
import { isCliError } from "../src/errors.js";

describe("oceanDemo", () => {
  const batch = oceanDemo();
  const sst = batch.get("sst")!;
  const values = sst.toArray() as Float32Array;

  it("sst(time, lat, lon) Float32 on a 12 x 90 x 180 grid with lat/lon/time coordinates", () => {
    expect(batch.grid()).toEqual([
      { name: "time", size: 12 },
      { name: "lat", size: 90 },
      { name: "lon", size: 180 },
    ]);
    expect(String(sst.type)).toBe("Float32");
    expect(batch.names()).toEqual(["time", "lat", "lon", "sst"]);
    const lat = batch.get("lat")!.toArray() as Float32Array;
    expect(lat[0]).toBe(-89);
    expect(lat[89]).toBe(89);
    expect(batch.get("time")!.attr("units")).toBe("days since 2000-01-01");
  });

  it("carries CF attributes and global attributes", () => {
    expect(sst.attr("units")).toBe("degC");
    expect(sst.attr("standard_name")).toBe("sea_surface_temperature");
    expect(sst.attr("valid_range")).toEqual([-2, 35]);
    expect(batch.globalAttr("Conventions")).toBe("CF-1.8");
    expect(batch.globalAttr("title")).toMatch(/sea surface temperature/);
  });

  it("is warm at the equator, cold at the poles, within the valid range, NaN over land", () => {
    const at = (k: number, i: number, j: number): number => values[(k * 90 + i) * 180 + j]!;
    let land = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of values) {
      if (Number.isNaN(v)) land++;
      else {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    expect(min).toBeGreaterThanOrEqual(-2);
    expect(max).toBeLessThanOrEqual(35);
    expect(land / values.length).toBeGreaterThan(0.1);
    expect(land / values.length).toBeLessThan(0.5);
    // Pacific (lon -150): equator (i 44) versus 61 N (i 75).
    expect(at(0, 44, 15) - at(0, 75, 15)).toBeGreaterThan(15);
  });

  it("has a seasonal cycle opposite in the hemispheres", () => {
    const mean = (k: number, i: number): number => {
      let sum = 0;
      let n = 0;
      for (let j = 0; j < 180; j++) {
        const v = values[(k * 90 + i) * 180 + j]!;
        if (!Number.isNaN(v)) {
          sum += v;
          n++;
        }
      }
      return sum / n;
    };
    // 41 N (i 65) and 41 S (i 24): August (k 7) versus February (k 1).
    expect(mean(7, 65) - mean(1, 65)).toBeGreaterThan(2);
    expect(mean(7, 24) - mean(1, 24)).toBeLessThan(-2);
  });

  it("is deterministic: the same seed gives the same values, another seed other weather", () => {
    expect(oceanDemo({ times: 2, lat: 10, lon: 20 }).get("sst")!.toArray()).toEqual(
      oceanDemo({ times: 2, lat: 10, lon: 20 }).get("sst")!.toArray(),
    );
    expect(oceanDemo({ times: 2, lat: 10, lon: 20, seed: 7 }).get("sst")!.toArray()).not.toEqual(
      oceanDemo({ times: 2, lat: 10, lon: 20 }).get("sst")!.toArray(),
    );
  });

  it("sizes that are not positive integers are InvalidArgument", () => {
    expect(() => oceanDemo({ lat: 0 })).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
    let err: unknown;
    try {
      oceanDemo({ times: 1.5 });
    } catch (e) {
      err = e;
    }
    expect(isCliError(err, "InvalidArgument")).toBe(true);
  });
});
