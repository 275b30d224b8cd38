import { describe, expect, it } from "vitest";
import { cfTimeToDate, dateToCfTime, isCfTimeUnits, parseCfTimeUnits } from "../src/index.js";

describe("parseCfTimeUnits", () => {
  it("reads cftime's unit spellings and date forms", () => {
    expect(parseCfTimeUnits("days since 1970-01-01").epochNs).toBe(0n);
    expect(parseCfTimeUnits("hrs since 1970-1-1 1:0:0").epochNs).toBe(3_600_000_000_000n);
    expect(parseCfTimeUnits("seconds since 1970-01-01T00:00:00Z").unit).toBe("seconds");
    expect(parseCfTimeUnits("msec since 1970-01-01 00:00:00.25").epochNs).toBe(250_000_000n);
    expect(parseCfTimeUnits("d since 1970-01-02 06:00 +06:00").epochNs).toBe(86_400_000_000_000n);
    expect(parseCfTimeUnits("days since 2000-01-01", "Proleptic_Gregorian").calendar).toBe("proleptic_gregorian");
  });

  it("proleptic_gregorian accepts years before 1582 (days from the Unix epoch)", () => {
    expect(parseCfTimeUnits("days since 0001-01-01", "proleptic_gregorian").epochNs).toBe(
      -719_162n * 86_400_000_000_000n,
    );
  });

  it("isCfTimeUnits tells time units from other units", () => {
    expect(isCfTimeUnits("days since 2000-01-01")).toBe(true);
    expect(isCfTimeUnits("degK")).toBe(false);
    expect(isCfTimeUnits(3)).toBe(false);
  });
});

describe("Date <-> number in a variable's units", () => {
  it("dateToCfTime and cfTimeToDate are inverses to the millisecond", () => {
    const units = "hours since 1990-01-01 00:00:00";
    for (const value of [0, 0.5, 36.25, -12, 262_968]) {
      expect(dateToCfTime(cfTimeToDate(value, units), units)).toBe(value);
    }
  });

  it("counts from the reference date in the unit", () => {
    expect(dateToCfTime(new Date("2000-02-01T00:00:00Z"), "days since 2000-01-01")).toBe(31);
    expect(cfTimeToDate(1500, "milliseconds since 2000-01-01 00:00:00.5").toISOString()).toBe(
      "2000-01-01T00:00:02.000Z",
    );
  });
});
