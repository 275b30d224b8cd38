import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TimestampSecond } from "apache-arrow";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";

// The README's dataset example lives here between the markers, and runs as a test.
// --8<-- [start:dataset-example]
import { col, dataset, open } from "lance-nd";

async function regionExample(uri: string): Promise<string[]> {
  const table = await open(uri);
  const ds = await dataset(table, { where: col("__global_attrs__.id").eq("sst-2000.nc") });
  const out = [`${ds.chunkCount} chunks, grid ${ds.dims.map((d) => `${d.name}=${d.size}`).join(" ")}`];

  const window = await ds.isel({ time: [3, 6], lat: 10 }).read(["sst"]); // lat=10 picks one index: the dim goes
  out.push(`isel: sst(${window.get("sst")!.dimNames.join(", ")}) ${window.get("sst")!.shape.join(" x ")}`);

  // A slice runs in the coordinate's order (latitude descends here); "2000-03" is every day of March.
  const band = await ds.sel({ lat: [10, -10], time: "2000-03" }).read(["sst", "lat"]);
  out.push(`sel: lat ${Array.from(band.get("lat")!.values).join(", ")}, ${band.get("sst")!.shape[0]} days`);

  const nearest = await ds.sel({ lat: 10 }, { method: "nearest" }).coord("lat"); // 5 and 15 tie: the larger
  out.push(`nearest lat: ${nearest.values.get(0)}`);

  for await (const block of ds.isel({ time: [90, 110], lat: [0, 2] }).blocks(["sst"])) {
    out.push(`block at [${block.offset.join(", ")}]: ${block.batch.get("sst")!.shape.join(" x ")}`);
  }
  return out;
}
// --8<-- [end:dataset-example]

const dir = tempDir("dataset-readme");

/** A daily sst(time 366, lat 18, lon 36) of 2000 with latitudes 85 ... -85 (north first), in 100-day x 9-latitude chunks. */
function sst2000(): NdRecordBatch[] {
  const [nt, ny, nx] = [366, 18, 36];
  const day = Date.UTC(2000, 0, 1) / 1000;
  const batch = new NdRecordBatch(
    {
      sst: NdArray.from(
        Float32Array.from({ length: nt * ny * nx }, (_, i) => 280 + (i % 29)),
        { dims: { time: nt, lat: ny, lon: nx }, attrs: { units: "K" } },
      ),
      time: NdArray.from(
        Array.from({ length: nt }, (_, t) => BigInt(day + t * 86_400)),
        { dims: { time: nt }, type: new TimestampSecond("UTC") },
      ),
      lat: NdArray.from(
        Float32Array.from({ length: ny }, (_, y) => 85 - 10 * y),
        { dims: { lat: ny } },
      ),
      lon: NdArray.from(
        Float32Array.from({ length: nx }, (_, x) => 5 + 10 * x),
        { dims: { lon: nx } },
      ),
    },
    { id: "sst-2000.nc" },
  );
  return chunk(batch, { time: 100, lat: 9 });
}

describe("README dataset example", () => {
  it("runs and prints the selections", async () => {
    const uri = join(dir, "ocean.lance");
    await write(uri, sst2000(), { stats: true });
    expect(await regionExample(uri)).toEqual([
      "8 chunks, grid time=366 lat=18 lon=36",
      "isel: sst(time, lon) 3 x 36",
      "sel: lat 5, -5, 31 days",
      "nearest lat: 15",
      "block at [0, 0, 0]: 10 x 2 x 36",
      "block at [10, 0, 0]: 10 x 2 x 36",
    ]);
  });

  it("is the code block of the README", () => {
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const example = /--8<-- \[start:dataset-example\]\n([\s\S]*?)\/\/ --8<-- \[end:dataset-example\]/.exec(source)![1]!;
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
