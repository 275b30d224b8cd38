/** Typical datasets of the tests, as nd record batches. */
import { TimestampSecond, Utf8 } from "apache-arrow";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";

/** An ocean dataset: sst(time, lat, lon) with its coordinates, one chunk per batch. */
export function oceanChunk(id: string, time0: number): NdRecordBatch {
  const [nt, nlat, nlon] = [2, 3, 4];
  const sst = NdArray.from(
    Float32Array.from({ length: nt * nlat * nlon }, (_, i) => 280 + i / 4),
    {
      dims: { time: nt, lat: nlat, lon: nlon },
      attrs: { units: "K", valid_range: attr.float32([270, 310]) },
      metadata: { source: "model" },
    },
  );
  const lat = NdArray.from(new Float32Array([-10, 0, 10]), { dims: { lat: nlat }, attrs: { units: "degrees_north" } });
  const lon = NdArray.from(new Float32Array([0, 90, 180, 270]), {
    dims: { lon: nlon },
    attrs: { units: "degrees_east" },
  });
  const time = NdArray.from(new BigInt64Array([BigInt(time0), BigInt(time0 + 86400)]), {
    dims: { time: nt },
    type: new TimestampSecond("UTC"),
  });
  return new NdRecordBatch({ sst, lat, lon, time }, { id, title: "ocean" });
}

/** A station dataset with a string variable and a timestamp variable, and no global attributes. */
export function stationBatch(names: string[]): NdRecordBatch {
  const station = NdArray.from(names, { dims: { station: names.length }, type: new Utf8() });
  const observed = NdArray.from(
    BigInt64Array.from(names, (_, i) => BigInt(1_700_000_000_000 + i)),
    { dims: { station: names.length }, type: new TimestampSecond() },
  );
  const flag = NdArray.from(
    names.map((_, i) => i % 2 === 0),
    { dims: { station: names.length } },
  );
  return new NdRecordBatch({ station, observed, flag });
}
