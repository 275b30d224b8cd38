/**
 * Quick start: build a small ocean-like dataset, encode it as one Arrow
 * RecordBatch row, decode it back.
 *
 * Run from the repository root: npx --yes pnpm@12.21.0 example
 */
import { NdArray, NdRecordBatch, attr, decode, encode } from "@lance-nd/nd-arrow";

const [time, lat, lon] = [2, 3, 4];

// Sea surface temperature on (time, lat, lon), row-major: lon varies fastest.
const sst = NdArray.from(
  Float32Array.from({ length: time * lat * lon }, (_, i) => 280 + (i % 17)),
  {
    dims: { time, lat, lon },
    attrs: { units: "K", long_name: "sea surface temperature", valid_range: attr.float32([270, 310]) },
  },
);
// Coordinate variables: 1-D arrays named like their dim.
const latitudes = NdArray.from(new Float64Array([-10, 0, 10]), { dims: { lat }, attrs: { units: "degrees_north" } });
const longitudes = NdArray.from(new Float64Array([100, 110, 120, 130]), {
  dims: { lon },
  attrs: { units: "degrees_east" },
});

const batch = new NdRecordBatch(
  { sst, lat: latitudes, lon: longitudes },
  { id: "tile-0", title: "A tiny ocean" }, // global attributes
);

const rb = encode([batch]); // one Arrow row per NdRecordBatch
console.log("Arrow schema:");
for (const field of rb.schema.fields) console.log(`  ${field.name}: ${field.type}`);
console.log(`rows: ${rb.numRows}`);

const [back] = decode(rb);
if (back === undefined) throw new Error("decode returned no rows");
console.log(
  "grid:",
  back
    .grid()
    .map((d) => `${d.name}=${d.size}`)
    .join(", "),
);
console.log("arrays:", back.names().join(", "));
console.log("global attrs:", Object.fromEntries([...back.globalAttrs].map(([k, a]) => [k, a.toJS()])));
const decodedSst = back.get("sst")!;
console.log("sst attrs:", Object.fromEntries([...decodedSst.attrs].map(([k, a]) => [k, a.toJS()])));
console.log("sst shape:", decodedSst.shape, "type:", String(decodedSst.type));
console.log("first sst values:", Array.from(decodedSst.toArray()).slice(0, 5));
