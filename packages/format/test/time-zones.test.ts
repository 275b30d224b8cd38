import { TimestampMillisecond, TimestampSecond, Utf8 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { planWrite, tableSchema } from "../src/index.js";
import { attrField, formatErrorOf, ndSchemaOf } from "./fixtures.js";

// FORMAT.md section 7, "Time zones with a colon": Lance panics on them at write time.
describe("planWrite refuses time zones Lance cannot store, naming where they are", () => {
  const table = tableSchema(ndSchemaOf([["t", new TimestampMillisecond("UTC"), []]], [attrField("id", new Utf8())]));
  const cases: Array<[string, ReturnType<typeof ndSchemaOf>, string, string | undefined]> = [
    ["variable values", ndSchemaOf([["t", new TimestampMillisecond("+05:30"), []]]), "t", undefined],
    [
      "variable attribute",
      ndSchemaOf([["v", new Utf8(), [attrField("when", new TimestampSecond("-03:00"))]]]),
      "v",
      "when",
    ],
    [
      "global attribute",
      ndSchemaOf([], [attrField("when", new TimestampMillisecond("+05:30"))]),
      "__global_attrs__",
      "when",
    ],
  ];
  for (const [name, incoming, column, key] of cases) {
    it(`${name}, into a new table and into an existing one`, () => {
      for (const into of [null, table]) {
        const err = formatErrorOf(() => planWrite(into, incoming), "InvalidInput");
        expect(err.column).toBe(column);
        expect(err.key).toBe(key);
        expect(err.message).toMatch(/time zone "[+-]\d\d:\d\d" cannot be stored/);
        expect(err.message).toMatch(/"[+-]\d{4}"/);
      }
    });
  }

  it("takes the zones Lance stores: named, UTC, an offset without a colon, none", () => {
    for (const zone of ["America/New_York", "UTC", "+0530", "+05", "Etc/GMT+5", null]) {
      expect(() => planWrite(table, ndSchemaOf([["u", new TimestampMillisecond(zone), []]]))).not.toThrow();
    }
  });
});
