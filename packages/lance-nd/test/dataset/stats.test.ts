import { describe, expect, it } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { col } from "../../src/read/expr.js";
import { isLanceNdError } from "../../src/errors.js";
import { tempDir } from "../helpers/make-table.js";
import { sstBatch, writeChunked } from "./fixture.js";

const dir = tempDir("dataset-stats");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;

/** `[min, max]` of the non-null values of `name` in the source batch: what the stats must say. */
function sourceRange(name: string): { min: number; max: number } {
  const values = Array.from(sstBatch().get(name)!.values as Iterable<number | null>).filter(
    (v): v is number => v !== null,
  );
  return { min: Math.min(...values), max: Math.max(...values) };
}

describe("dataset: stats", () => {
  it("are each variable's min and max over the rows, from the stats columns; a timestamp has none", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 4, lat: 5 });
    const ds = await dataset(table, { where: col("__global_attrs__.id").eq("sst.nc") });
    expect(ds.chunkCount).toBe(6);
    expect(ds.stats()).toEqual(
      new Map([
        ["sst", sourceRange("sst")],
        ["time", null],
        ["lat", sourceRange("lat")],
        ["lon", sourceRange("lon")],
      ]),
    );
    expect(ds.stats(["lat"])).toEqual(new Map([["lat", { min: -45, max: 45 }]]));
  });

  it("are the pinned version's: rows deleted later still count until refresh", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 4 });
    const ds = await dataset(table);
    await table.delete("__stats__:time.min >= TIMESTAMP '2000-01-09 00:00:00'");
    expect(ds.stats(["sst"]).get("sst")).toEqual(sourceRange("sst"));
    const fresh = await ds.refresh();
    expect(fresh.chunkCount).toBe(2);
    expect(fresh.stats(["sst"]).get("sst")).toEqual({ min: 0, max: 1097 + 1000 * 6 });
  });

  it("are null for every variable of a table written without stats", async () => {
    const ds = await dataset(await writeChunked(uri(), sstBatch(), { time: 4 }, false));
    expect(ds.stats()).toEqual(
      new Map([
        ["sst", null],
        ["time", null],
        ["lat", null],
        ["lon", null],
      ]),
    );
  });

  it("reject an unknown variable, naming it and the variables", async () => {
    const ds = await dataset(await writeChunked(uri(), sstBatch(), {}));
    let error: unknown;
    try {
      ds.stats(["sst", "nope"]);
    } catch (e) {
      error = e;
    }
    expect(isLanceNdError(error) && error.code).toBe("VariableNotFound");
    expect((error as Error).message).toContain('dataset: no variable "nope"; the variables are sst, time, lat, lon');
  });
});
