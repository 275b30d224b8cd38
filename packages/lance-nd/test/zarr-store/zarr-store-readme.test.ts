import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";

// The README's "Serving as Zarr" example lives here between the markers, and runs as a test.
// --8<-- [start:zarr-store-example]
import * as zarr from "zarrita";
import { open, zarrStore } from "lance-nd";

async function serveExample(uri: string): Promise<string[]> {
  const table = await open(uri);
  const store = await zarrStore(table); // Zarr v2, uncompressed chunks, the table's current version
  const out = [`datasets ${(await store.datasets()).join(", ")} at version ${store.version}`];

  const sst = await zarr.open(zarr.root(store).resolve("sst.nc/sst"), { kind: "array" });
  out.push(`sst ${sst.shape.join(" x ")} in chunks of ${sst.chunks.join(" x ")}`); // a chunk is a table row
  const day = await zarr.get(sst, [0, null, null]);
  out.push(`day 0: ${day.shape.join(" x ")}, first value ${(day.data as Float32Array)[0]}`);

  const tagged = await zarrStore(await table.checkout("first"), { zarrVersion: 3, codec: "zlib" });
  out.push(`tag first: version ${tagged.version}`);
  return out;
}
// --8<-- [end:zarr-store-example]

const dir = tempDir("zarr-store-readme");

/** sst(time 4, lat 3, lon 5) in rows of 2 time steps. */
function sst(): NdRecordBatch[] {
  const values = Float32Array.from({ length: 4 * 3 * 5 }, (_, i) => 280 + i);
  const batch = new NdRecordBatch(
    { sst: NdArray.from(values, { dims: { time: 4, lat: 3, lon: 5 }, attrs: { units: "K" } }) },
    { id: "sst.nc" },
  );
  return chunk(batch, { time: 2 });
}

describe("README zarrStore example", () => {
  it("runs and reads the table through zarrita", async () => {
    const uri = join(dir, "sst.lance");
    const table = await write(uri, sst());
    await table.tag("first");
    expect(await serveExample(uri)).toEqual([
      "datasets sst.nc at version 1",
      "sst 4 x 3 x 5 in chunks of 2 x 3 x 5",
      "day 0: 3 x 5, first value 280",
      "tag first: version 1",
    ]);
  });

  it("is the code block of the README", () => {
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const example = /--8<-- \[start:zarr-store-example\]\n([\s\S]*?)\/\/ --8<-- \[end:zarr-store-example\]/.exec(
      source,
    )![1]!;
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
