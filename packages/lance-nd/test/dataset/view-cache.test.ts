import { afterEach, describe, expect, it, vi } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { tempDir } from "../helpers/make-table.js";
import { DAY, T0, recordReads, sstBatch, writeChunked } from "./fixture.js";

const dir = tempDir("dataset-cache");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;

afterEach(() => vi.restoreAllMocks());

describe("dataset: a pinned view keeps what it read", () => {
  it("repeated sel / isel / read / blocks read no coordinate and no chunk index again", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 4, lat: 5 });
    const view = await table.checkout(await table.version());
    const ds = await dataset(view);
    const reads = recordReads(view);
    const days = [new Date(T0 + 2 * DAY), new Date(T0 + 6 * DAY)] as const;

    const first = await ds.sel({ time: days, lat: [44, 6] }).read(["sst"]);
    const coordinateTakes = reads.takes.filter((t) => t.columns.includes("time") || t.columns.includes("lat")).length;
    expect(coordinateTakes).toBeGreaterThan(0);

    for (let round = 0; round < 3; round++) {
      reads.takes.length = 0;
      const again = await ds.sel({ time: days, lat: [44, 6] }).read(["sst"]);
      expect(Array.from(again.get("sst")!.values)).toEqual(Array.from(first.get("sst")!.values));
      // Another selection on the same coordinates, nearest too, from a view derived from this one.
      await ds
        .isel({ lon: [0, 4] })
        .sel({ time: new Date(T0 + 5 * DAY) }, { method: "nearest" })
        .read(["sst"]);
      for await (const block of ds.sel({ lat: [30, 20] }).blocks(["sst"])) void block;
      expect(reads.takes.every((t) => t.columns.length === 1 && t.columns[0] === "sst")).toBe(true);
      expect(reads.scans).toBe(0);
    }
  });

  it("views from another dataset() call read their own coordinates", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 4 });
    const view = await table.checkout(await table.version());
    const reads = recordReads(view);
    await (await dataset(view)).sel({ lat: 25 }).read(["sst"]);
    const once = reads.takes.filter((t) => t.columns.includes("lat")).length;
    await (await dataset(view)).sel({ lat: 25 }).read(["sst"]);
    expect(reads.takes.filter((t) => t.columns.includes("lat")).length).toBe(2 * once);
  });
});
