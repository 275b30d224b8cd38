/**
 * The netCDF4-python oracle of the cf tests: runs scripts/netcdf4-oracle.py
 * with /usr/bin/python3 and turns its cases into nd-arrow arrays. Outside CI
 * the tests skip with the reason when python3 or netCDF4 is missing; under
 * `CI=true` they run and fail.
 */
import { fileURLToPath } from "node:url";
import { NdArray, attr } from "@lance-nd/nd-arrow";
import type { Attr } from "@lance-nd/nd-arrow";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";

const SCRIPT = fileURLToPath(new URL("../scripts/netcdf4-oracle.py", import.meta.url));

/** One JSON value of the oracle: numbers, 64-bit integers and NaN as strings, null for masked. */
export type OracleValue = number | string | null;

/** One case: a variable as stored, its attributes, and netCDF4's decoding. */
export interface OracleCase {
  name: string;
  dtype: string;
  raw: OracleValue[];
  attrs: Record<string, { dtype: string; value: string | OracleValue[] }>;
  decoded: { dtype: string; values: OracleValue[] };
  epochMicroseconds?: (string | null)[];
  /** What netCDF4 stores when it writes the decoded values back (cases with a valid range only). */
  rewritten: OracleValue[] | null;
}

/** Why the oracle cannot run here (undefined when it can, and always under CI). */
export function oracleSkipReason(): string | undefined {
  return pythonSkipReason("netCDF4-python oracle", ["netCDF4"], "apt-get install python3-netcdf4");
}

/** Runs the oracle script and returns its cases. */
export function oracleCases(): OracleCase[] {
  return (JSON.parse(runPython([SCRIPT])) as { cases: OracleCase[] }).cases;
}

/** An oracle value as a JS number or bigint. */
export function jsValue(v: OracleValue, dtype: string): number | bigint {
  if (v === "NaN") return NaN;
  if (dtype === "int64" || dtype === "uint64") return BigInt(v as string);
  return Number(v);
}

const ARRAYS: Record<string, (values: (number | bigint)[]) => ArrayLike<unknown>> = {
  int8: (v) => Int8Array.from(v as number[]),
  int16: (v) => Int16Array.from(v as number[]),
  int32: (v) => Int32Array.from(v as number[]),
  int64: (v) => BigInt64Array.from(v as bigint[]),
  uint8: (v) => Uint8Array.from(v as number[]),
  uint16: (v) => Uint16Array.from(v as number[]),
  uint32: (v) => Uint32Array.from(v as number[]),
  float32: (v) => Float32Array.from(v as number[]),
  float64: (v) => Float64Array.from(v as number[]),
};

const ATTRS: Record<string, (v: never) => Attr> = {
  int8: attr.int8,
  int16: attr.int16,
  int32: attr.int32,
  int64: attr.int64,
  uint8: attr.uint8,
  uint16: attr.uint16,
  uint32: attr.uint32,
  float32: attr.float32,
  float64: attr.float64,
};

/** The case's stored variable as an NdArray with its attributes (one number a scalar attribute). */
export function storedArray(c: OracleCase): NdArray {
  const attrs = new Map<string, Attr>();
  for (const [key, { dtype, value }] of Object.entries(c.attrs)) {
    if (typeof value === "string") attrs.set(key, attr.utf8(value));
    else {
      const items = value.map((v) => jsValue(v, dtype));
      attrs.set(key, ATTRS[dtype]!((items.length === 1 ? items[0] : ARRAYS[dtype]!(items)) as never));
    }
  }
  const values = ARRAYS[c.dtype]!(c.raw.map((v) => jsValue(v, c.dtype)));
  return NdArray.from(values as never, { dims: { [c.name]: c.raw.length }, attrs });
}
