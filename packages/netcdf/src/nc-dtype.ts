/** The numpy type of each numeric netCDF type (README, "API"). */
import type { Dtype } from "@lance-nd/cf";
import type { NcType } from "./raw.js";

const DTYPES: Record<Exclude<NcType, "char" | "string">, Dtype> = {
  byte: "int8",
  ubyte: "uint8",
  short: "int16",
  ushort: "uint16",
  int: "int32",
  uint: "uint32",
  int64: "int64",
  uint64: "uint64",
  float: "float32",
  double: "float64",
};

/**
 * The numpy type (`@lance-nd/cf`'s `Dtype`) of a numeric netCDF type;
 * `undefined` for `char` and `string`.
 *
 * @example ncDtype("short") // "int16"
 */
export function ncDtype(type: NcType): Dtype | undefined {
  return type === "char" || type === "string" ? undefined : DTYPES[type];
}
