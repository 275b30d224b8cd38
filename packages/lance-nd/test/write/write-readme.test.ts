// The README's "Writing" example, run against a temp folder (keep the two in step).
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { expect, it } from "vitest";
import { NdWriter, append, open, write } from "../../src/index.js";
import { tempDir } from "../helpers/make-table.js";

const dir = tempDir("readme");

it("the README write example runs: write, append, NdWriter", async () => {
  const uri = path.join(dir, "sst.lance");
  // --8<-- [start:write]
  const row = (i: number) =>
    new NdRecordBatch(
      { sst: NdArray.from(new Float32Array(6).fill(280 + i), { dims: { lat: 2, lon: 3 }, attrs: { units: "K" } }) },
      { id: `r${i}` },
    );

  // Create a table (one Lance version for rows that fit one add).
  const table = await write(uri, [row(0), row(1)], {
    stats: true,
    columnDefaults: { compression: { codec: "zstd", level: 3 } },
  });

  // Append: rows are an Iterable or an AsyncIterable of NdRecordBatch.
  await append(table, [row(2)], { casting: "safe" });

  // Many rows in several calls: NdWriter.
  const writer = await NdWriter.append(await open(uri));
  for (let i = 3; i < 100; i++) await writer.write(row(i));
  await writer.finish();
  // --8<-- [end:write]
  expect(await table.countRows()).toBe(100);
  expect(await table.version()).toBe(3);
});
