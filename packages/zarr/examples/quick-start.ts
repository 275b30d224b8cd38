// Write a small dataset as Zarr, open it lazily, read a window and rows, write Zarr v2.
// Run: node --conditions=@lance-nd/source --import tsx examples/quick-start.ts (from packages/zarr)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cfDecode } from "@lance-nd/cf";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { openZarr, writeZarr } from "@lance-nd/zarr";

const dir = mkdtempSync(join(tmpdir(), "zarr-example-"));

// A small dataset: sea surface temperature on a 4 x 3 x 2 grid with its coordinates.
const sst = NdArray.from(
  Float32Array.from({ length: 24 }, (_, i) => 280 + i / 4),
  {
    dims: { time: 4, lat: 3, lon: 2 },
    attrs: { units: "K", _FillValue: attr.float32(Number.NaN) },
  },
);
const time = NdArray.from(new Int32Array([0, 1, 2, 3]), {
  dims: { time: 4 },
  attrs: { units: "days since 2000-01-01" },
});
const lat = NdArray.from(new Float64Array([-1, 0, 1]), { dims: { lat: 3 } });
const batch = new NdRecordBatch({ sst, time, lat }, { title: "example" });

// Write it as Zarr v3 (zstd), one chunk per two time steps.
await writeZarr(join(dir, "sst.zarr"), batch, { chunks: { time: 2 } });

// Open it lazily: metadata only, then read a window.
const store = await openZarr(join(dir, "sst.zarr"));
console.log(store.format, store.dims.map((d) => `${d.name}=${d.size}`).join(" "));
console.log(store.variable("sst").chunks, store.globalAttrs.get("id")?.toJS());
const window = await store.read("sst", { time: [1, 3], lat: 0 });
console.log(window.dimNames, Array.from(window.values));

// Rows follow the store's chunk grid; { time: 1 } would cut finer. CF times decode with @lance-nd/cf.
for await (const row of store.chunks()) console.log(row.globalAttr("chunk_offset"), row.get("sst")?.shape);
const times = cfDecode(await store.read("time"), { name: "time" });
console.log(String(times.type));

// And back to Zarr v2 for older readers (xarray.open_zarr opens it as the same dataset).
const written = await writeZarr(join(dir, "sst-v2.zarr"), store.chunks(), { version: 2 });
console.log(written);

rmSync(dir, { recursive: true });
