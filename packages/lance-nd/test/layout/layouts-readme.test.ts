import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";

// The README's layouts example lives here between the markers, and runs as a test.
// --8<-- [start:layouts-example]
import { col, dataset, layouts, open, rechunk } from "lance-nd";

async function layoutsExample(uri: string): Promise<string[]> {
  const table = await open(uri); // t2m(time, lat, lon) of era5.nc, one time step a row
  await rechunk(table, { id: "era5.nc", chunk: { time: "all", lat: 20, lon: 20 }, name: "series" });
  const where = col("__global_attrs__.id").eq("era5.nc");
  const ds = await dataset(table, { where });
  const out = [`layouts: ${ds.layouts.join(", ")}`];
  out.push(`a point's series reads ${await ds.isel({ lat: 10, lon: 30 }).readLayout(["t2m"])}`);
  out.push(`a map reads ${await ds.isel({ time: 0 }).readLayout(["t2m"])}`);
  const forced = await dataset(table, { where, layout: "source" }); // this layout only
  out.push(`forced: ${forced.layouts.join(", ")}`);
  for (const layout of await layouts(table, "era5.nc")) {
    out.push(`${layout.name}: ${layout.chunk}, ${layout.rows} rows, ${layout.stale ?? "current"}`);
  }
  return out;
}
// --8<-- [end:layouts-example]

const dir = tempDir("layouts-readme");

/** t2m(time 8, lat 40, lon 60) with its coordinates, one time step a row. */
function era5(): NdRecordBatch[] {
  const [nt, ny, nx] = [8, 40, 60];
  const batch = new NdRecordBatch(
    {
      t2m: NdArray.from(
        Float32Array.from({ length: nt * ny * nx }, (_, i) => 250 + (i % 41)),
        { dims: { time: nt, lat: ny, lon: nx } },
      ),
      lat: NdArray.from(
        Float32Array.from({ length: ny }, (_, y) => 39 - 2 * y),
        { dims: { lat: ny } },
      ),
      lon: NdArray.from(
        Float32Array.from({ length: nx }, (_, x) => 2 * x),
        { dims: { lon: nx } },
      ),
    },
    { id: "era5.nc" },
  );
  return chunk(batch, { time: 1 });
}

describe("README layouts example", () => {
  it("runs and prints the layouts and the reads' choices", async () => {
    const uri = join(dir, "era5.lance");
    await write(uri, era5());
    expect(await layoutsExample(uri)).toEqual([
      "layouts: source, series",
      "a point's series reads series",
      "a map reads source",
      "forced: source",
      "source: time=1,lat=all,lon=all, 8 rows, current",
      "series: time=all,lat=20,lon=20, 6 rows, current",
    ]);
  });

  it("is the code block of the README", () => {
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const example = /--8<-- \[start:layouts-example\]\n([\s\S]*?)\/\/ --8<-- \[end:layouts-example\]/.exec(source)![1]!;
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
