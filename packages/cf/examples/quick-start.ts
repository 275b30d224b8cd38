import { NdArray, attr } from "@lance-nd/nd-arrow";
import { cfDecode, cfEncode, cfTimeToDate, dateToCfTime } from "@lance-nd/cf";

// Packed int16 with a fill value: decoding masks the fill and unpacks.
const sst = NdArray.from(new Int16Array([1200, -32767, 1500]), {
  dims: { x: 3 },
  attrs: { _FillValue: attr.int16(-32767), scale_factor: attr.float32(0.01), add_offset: attr.float32(273.15) },
});
const decoded = cfDecode(sst, { mask: true, scale: true, times: true });
console.log(
  String(decoded.type),
  Array.from(decoded.values, (v) => (v === null ? null : Number(v.toFixed(2)))),
);

// CF times become UTC timestamps; cfEncode gives the stored numbers back.
const time = NdArray.from(new Int32Array([0, 31]), {
  dims: { time: 2 },
  attrs: { units: "days since 2000-01-01", calendar: "standard" },
});
const dates = cfDecode(time);
console.log(
  String(dates.type),
  Array.from(dates.values, (ms) => new Date(Number(ms)).toISOString()),
);
console.log(Array.from(cfEncode(dates).values), Array.from(cfEncode(decoded).values));

// The time-unit conversion on its own.
console.log(dateToCfTime(new Date("2000-01-02T12:00:00Z"), "days since 2000-01-01"));
console.log(cfTimeToDate(36, "hours since 1990-01-01 00:00:00").toISOString());
