import { Float64, TimeUnit } from "apache-arrow";
import type { Timestamp } from "apache-arrow";
import { NdArray, attr } from "@lance-nd/nd-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import { STORED_DTYPE_ATTR, cfDecode, cfEncode, dtypeOf, isCfError } from "../src/index.js";
import { jsValue, oracleCases, oracleSkipReason, storedArray } from "./netcdf4-oracle.js";
import type { OracleCase } from "./netcdf4-oracle.js";

const skip = oracleSkipReason();

/** The one case where @lance-nd/cf deviates from netCDF4-python on purpose (README, "What is decoded"). */
const UNPACKED_UNITS = "valid_range_unpacked_units";

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe.skipIf(skip !== undefined)(`cfDecode / cfEncode against netCDF4-python${skip ? ` (${skip})` : ""}`, () => {
  let cases: OracleCase[] = [];
  beforeAll(() => {
    cases = oracleCases();
  });
  const byName = (name: string): OracleCase => cases.find((c) => c.name === name)!;

  it("mask and scale: every value, null and dtype matches netCDF4's automatic mask-and-scale", () => {
    expect(cases.length).toBeGreaterThan(15);
    for (const c of cases.filter((c) => c.name !== UNPACKED_UNITS)) {
      const decoded = cfDecode(storedArray(c), { times: false, validRange: true, name: c.name });
      expect(dtypeOf(decoded.type), c.name).toBe(c.decoded.dtype);
      const want = c.decoded.values.map((v) => (v === null ? null : jsValue(v, c.decoded.dtype)));
      expect(Array.from(decoded.values), c.name).toEqual(want);
    }
  });

  it("times: every decoded timestamp is netCDF4.num2date's instant (to the microsecond)", () => {
    const timed = cases.filter((c) => c.epochMicroseconds !== undefined);
    expect(timed.length).toBeGreaterThan(4);
    for (const c of timed) {
      const decoded = cfDecode(storedArray(c), { validRange: true, name: c.name });
      const type = decoded.type as Timestamp;
      expect(type.timezone, c.name).toBe("UTC");
      const perMicro = {
        [TimeUnit.SECOND]: -1,
        [TimeUnit.MILLISECOND]: -2,
        [TimeUnit.MICROSECOND]: 1,
        [TimeUnit.NANOSECOND]: 1000,
      }[type.unit];
      const raw = decoded.values.data[0]!.values as BigInt64Array;
      const micros = Array.from(raw, (t, i) => {
        if (!decoded.values.isValid(i)) return null;
        if (perMicro === -1) return String(t * 1_000_000n);
        if (perMicro === -2) return String(t * 1000n);
        return String(t / BigInt(perMicro));
      });
      expect(micros, c.name).toEqual(c.epochMicroseconds);
    }
  });

  it("cfEncode(cfDecode(x)) gives back the stored values, type and attributes exactly (no valid range applied)", () => {
    for (const c of cases) {
      const stored = storedArray(c);
      const back = cfEncode(cfDecode(stored, { name: c.name }), { name: c.name });
      expect(String(back.type), c.name).toBe(String(stored.type));
      expect(Array.from(back.values), c.name).toEqual(
        Array.from(stored.values).map((v) => (Number.isNaN(v) ? NaN : v)),
      );
      expect([...back.attrs.keys()], c.name).toEqual([...stored.attrs.keys()]);
    }
  });

  it("valid_range / valid_min / valid_max: values outside are nulls, and encode as the fill value netCDF4 writes", () => {
    const ranged = cases.filter((c) => c.rewritten !== null && c.name !== UNPACKED_UNITS);
    expect(ranged.length).toBeGreaterThan(8);
    for (const c of ranged) {
      const stored = storedArray(c);
      const back = cfEncode(cfDecode(stored, { validRange: true, name: c.name }), { name: c.name });
      expect(String(back.type), c.name).toBe(String(stored.type));
      expect(Array.from(back.values), c.name).toEqual(c.rewritten!.map((v) => jsValue(v!, c.dtype)));
      // Times masked without a declared fill declare the one they are written back as (xarray reads NaT).
      const declared = c.name === "valid_range_time" ? ["_FillValue"] : [];
      expect([...back.attrs.keys()], c.name).toEqual([...stored.attrs.keys(), ...declared]);
      if (declared.length > 0) expect(back.attr("_FillValue"), c.name).toBe(-2147483647);
    }
  });

  it("float bounds on packed integers are unpacked units (netCDF-Java's reading; netCDF4 masks every value)", () => {
    const c = byName(UNPACKED_UNITS);
    expect(c.decoded.values).toEqual([null, null, null, null]);
    const decoded = cfDecode(storedArray(c), { validRange: true, name: c.name });
    expect(Array.from(decoded.values, (v) => (v === null ? null : Math.round((v as number) * 100) / 100))).toEqual([
      270,
      287,
      null,
      null,
    ]);
    const masked = cfDecode(storedArray(c), { scale: false, validRange: true, name: c.name });
    expect(Array.from(masked.values)).toEqual([27000, 28700, null, null]);
  });

  it("a value outside the valid range is never a decoded min or max", () => {
    const decoded = cfDecode(storedArray(byName("valid_range_packed")), { validRange: true });
    const values = Array.from(decoded.values).filter((v): v is number => v !== null);
    expect([Math.min(...values), Math.max(...values)]).toEqual([0, 100]);
  });

  it("without validRange (the default) only fill values are masked: bounds stay attributes", () => {
    const decoded = cfDecode(storedArray(byName("valid_range_short")), { times: false });
    expect(Array.from(decoded.values)).toEqual([-5, 0, 50, 100, 101, null]);
  });

  it("a fill value never survives masking: the decoded min and max are data", () => {
    const c = byName("packed_f32");
    const decoded = cfDecode(storedArray(c));
    const values = Array.from(decoded.values).filter((v): v is number => v !== null);
    expect(Math.min(...values)).toBeCloseTo(273.1, 4);
    expect(Math.max(...values)).toBeCloseTo(285.15, 4);
  });
});

describe("cfDecode options and pass-through", () => {
  const packed = NdArray.from(new Int16Array([100, -32767]), {
    dims: { x: 2 },
    attrs: { _FillValue: attr.int16(-32767), scale_factor: attr.float32(0.01) },
  });

  it("mask only keeps the stored type and adds no attribute", () => {
    const masked = cfDecode(packed, { scale: false, times: false });
    expect(dtypeOf(masked.type)).toBe("int16");
    expect(Array.from(masked.values)).toEqual([100, null]);
    expect(masked.attrs.has(STORED_DTYPE_ATTR)).toBe(false);
  });

  it("unpacking records the stored dtype; decoding twice changes nothing", () => {
    const once = cfDecode(packed);
    expect(once.attr(STORED_DTYPE_ATTR)).toBe("int16");
    expect(cfDecode(once)).toBe(once);
  });

  it("raw options leave the array as it is", () => {
    expect(cfDecode(packed, { mask: false, scale: false, times: false })).toBe(packed);
  });

  it("strings pass through", () => {
    const names = NdArray.from(["a", "b"], { dims: { x: 2 }, attrs: { _FillValue: "" } });
    expect(cfDecode(names)).toBe(names);
  });
});

describe("lossless masking: decoding then encoding never changes a value", () => {
  const int32 = (values: number[], attrs: Record<string, unknown>) =>
    NdArray.from(new Int32Array(values), { dims: { x: values.length }, attrs: attrs as never });
  const both = { _FillValue: attr.int32(1), missing_value: attr.int32(2) };

  it("a cell equal to a missing_value other than _FillValue is LossyMask naming the variable and both values", () => {
    const err = thrown(() => cfDecode(int32([1, 2, 3], both), { lossless: true, name: "v" }));
    expect(isCfError(err, "LossyMask"), String(err)).toBe(true);
    expect((err as Error).message).toBe(
      'variable "v": holds the missing value 2, but nulls are written back as its _FillValue 1: masking would change that value on a round trip',
    );
    // netCDF's default fill where missing_value is what nulls go back as.
    const fill = -2147483647;
    expect(
      isCfError(
        thrown(() => cfDecode(int32([fill], { missing_value: attr.int32(2) }), { lossless: true })),
        "LossyMask",
      ),
    ).toBe(true);
  });

  it("masks that encode back exactly pass, and round trip every value", () => {
    const seeded = (seed: number) => Array.from({ length: 64 }, (_, i) => ((seed * 31 + i * 17) % 5) - 1);
    for (let seed = 0; seed < 20; seed++) {
      const values = seeded(seed).map((v) => (v === 2 ? 1 : v)); // never the missing_value 2
      for (const attrs of [both, { missing_value: attr.int32(1) }, { _FillValue: attr.int32(1) }]) {
        const stored = int32(values, attrs);
        const decoded = cfDecode(stored, { lossless: true, scale: false, times: false });
        expect(Array.from(cfEncode(decoded, { scale: false, times: false }).values), String(seed)).toEqual(values);
      }
    }
    // Without lossless, netCDF4-python's mask: both markers are nulls.
    expect(Array.from(cfDecode(int32([1, 2, 3], both)).values)).toEqual([null, null, 3]);
  });
});

describe("errors", () => {
  const time = (attrs: Record<string, string>) => NdArray.from(new Int32Array([0, 1]), { dims: { time: 2 }, attrs });

  it("an unknown calendar is UnsupportedCalendar naming the variable and calendar", () => {
    const err = thrown(() => cfDecode(time({ units: "days since 2000-01-01", calendar: "lunar" }), { name: "time" }));
    expect(isCfError(err, "UnsupportedCalendar")).toBe(true);
    expect((err as Error).message).toMatch(
      /variable "time", attribute calendar: calendar "lunar" is not a CF calendar/,
    );
  });

  it("months since is InvalidUnits saying why", () => {
    const err = thrown(() => cfDecode(time({ units: "months since 2000-01-01" })));
    expect(isCfError(err, "InvalidUnits")).toBe(true);
    expect((err as Error).message).toMatch(/no fixed length/);
  });

  it("a bad reference date is InvalidUnits", () => {
    expect(
      isCfError(
        thrown(() => cfDecode(time({ units: "days since yesterday" }))),
        "InvalidUnits",
      ),
    ).toBe(true);
  });

  it("a text _FillValue on numbers is InvalidAttribute", () => {
    const bad = NdArray.from(new Int16Array([1]), { dims: { x: 1 }, attrs: { _FillValue: "none" } });
    expect(
      isCfError(
        thrown(() => cfDecode(bad)),
        "InvalidAttribute",
      ),
    ).toBe(true);
  });

  it("a time beyond the nanosecond range is OutOfRange", () => {
    const far = NdArray.from(new Float64Array([1e9]), { dims: { t: 1 }, attrs: { units: "days since 2000-01-01" } });
    expect(
      isCfError(
        thrown(() => cfDecode(far)),
        "OutOfRange",
      ),
    ).toBe(true);
  });

  it("a value that does not pack into the stored type is OutOfRange", () => {
    const decoded = cfDecode(
      NdArray.from(new Int16Array([1]), { dims: { x: 1 }, attrs: { scale_factor: attr.float32(0.01) } }),
    );
    const tooBig = decoded.withValues(NdArray.from(new Float32Array([1e6]), { type: decoded.type }).values);
    expect(
      isCfError(
        thrown(() => cfEncode(tooBig)),
        "OutOfRange",
      ),
    ).toBe(true);
  });

  it("timestamps without CF units do not encode", () => {
    const ts = cfDecode(time({ units: "days since 2000-01-01" })).withAttrs({});
    expect(
      isCfError(
        thrown(() => cfEncode(ts)),
        "InvalidUnits",
      ),
    ).toBe(true);
    expect(new Float64()).toBeDefined();
  });
});
