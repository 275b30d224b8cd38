/**
 * @lance-nd/cf: the CF conventions of netCDF-style variables on nd-arrow
 * arrays. Fill values become nulls, packed values unpack, CF times become
 * Arrow timestamps (times of calendars a timestamp cannot hold keep their
 * numbers and print as dates of their calendar: `formatCfTime`), and
 * `cfEncode` undoes all of it exactly.
 *
 * @example
 * import { NdArray, attr } from "@lance-nd/nd-arrow";
 * import { cfDecode, cfEncode, dateToCfTime } from "@lance-nd/cf";
 *
 * const time = NdArray.from(new Int32Array([0, 31]), { dims: { time: 2 }, attrs: { units: "days since 2000-01-01" } });
 * cfDecode(time).values.get(1);                                        // 2000-02-01 as epoch ms (Timestamp s, UTC)
 * cfEncode(cfDecode(time)).toArray();                                  // Int32Array [0, 31]
 * dateToCfTime(new Date("2000-01-02T12:00Z"), "days since 2000-01-01"); // 1.5
 */
export { CfError, isCfError } from "./cf-error.js";
export type { CfErrorCode, CfErrorContext } from "./cf-error.js";
export { cfDecode, cfEncode, RAW_VARIABLE_ATTR, STORED_DTYPE_ATTR } from "./cf-codec.js";
export { maskRoundTrips } from "./mask.js";
export { boundsTimeAttrs } from "./bounds.js";
export { withCoordinates } from "./coordinates.js";
export type { NamedAttrs } from "./bounds.js";
export type { CfOptions } from "./cf-codec.js";
export { isCfTimeUnits, parseCfTimeUnits, sameCfTimeEncoding } from "./time-units.js";
export type { CfTimeUnit, CfTimeUnits } from "./time-units.js";
export type { CalendarDate, CfCalendar } from "./calendar.js";
export {
  cfTimeToDate,
  cfTimeToDateTime,
  dateTimeToCfTime,
  dateToCfTime,
  formatCfDateTime,
  formatCfTime,
} from "./cf-datetime.js";
export type { CfDateTime } from "./cf-datetime.js";
export { arrowType, castFill, defaultFillValue, DTYPE_NAMES, dtypeOf, isDtype } from "./dtype.js";
export type { Dtype } from "./dtype.js";
export { unpackedDtype } from "./scale.js";
export type { Packing } from "./scale.js";
export {
  BYTE_ATTRS_ATTR,
  CHAR_DIM_ATTR,
  CHAR_DIM_SIZE_ATTR,
  CHUNK_SIZES_ATTR,
  DEFLATE_LEVEL_ATTR,
  DIM_ORDER_ATTR,
  FILTER_ATTR,
  FORMAT_ATTR,
  SHUFFLE_ATTR,
  STORAGE_ATTRS,
  STRING_ATTRS_ATTR,
  UNLIMITED_ATTR,
  UNUSED_DIMS_ATTR,
  UNUSED_DIM_SIZES_ATTR,
  VARIABLE_ORDER_ATTR,
} from "./storage-attrs.js";
