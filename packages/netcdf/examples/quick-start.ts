import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { openNetcdf, readNetcdf, writeNetcdf } from "@lance-nd/netcdf";

// Write a small netCDF-4 file: time is unlimited, sst chunked and deflated.
const path = join(mkdtempSync(join(tmpdir(), "netcdf-example-")), "sst.nc");
const sst = NdArray.from(
  Float32Array.from({ length: 4 * 2 * 3 }, (_, i) => 280 + i),
  { dims: { time: 4, lat: 2, lon: 3 }, attrs: { units: "K" } },
);
const time = NdArray.from(Int32Array.of(0, 1, 2, 3), { dims: { time: 4 }, attrs: { units: "days since 2000-01-01" } });
await writeNetcdf(path, new NdRecordBatch({ time, sst }, { title: "example" }), {
  compression: { codec: "deflate", level: 4 },
  chunks: { time: 1 },
  unlimited: ["time"],
});

// Open it lazily: the header, then only the slab asked for.
const file = await openNetcdf(path);
console.log(file.format, file.dims.map((d) => `${d.name}=${d.size}${d.unlimited ? " (unlimited)" : ""}`).join(", "));
console.log(file.variable("sst").chunking, file.variable("sst").compression);
const window = await file.read("sst", { time: [1, 2], lon: [0, 2] });
console.log(window.shape, Array.from(window.toArray()));

// Rows one at a time, each with its chunk_offset.
for await (const row of file.chunks({ time: 2 })) console.log(row.globalAttr("chunk_offset"), row.get("sst")?.shape);
await file.close();

// The whole file as one batch.
console.log((await readNetcdf(path)).names());
