import { describe, expect, it } from "vitest";
import * as format from "../src/index.js";

describe("public exports", () => {
  it("the package exports exactly this API", () => {
    expect(Object.keys(format).sort()).toEqual([
      "CASTING_MODES",
      "COLUMN_DEFAULTS_PREFIX",
      "ENCODING_PREFIX",
      "FORMAT_KEY",
      "FORMAT_VERSION",
      "FormatError",
      "STATS_KEY",
      "addedFields",
      "applyColumnEncoding",
      "checkArrayName",
      "columnDefaultsMetadata",
      "columnEncoding",
      "decodeRows",
      "describeSchema",
      "describeValue",
      "encodeRows",
      "isFormatError",
      "isReservedName",
      "mergeColumnOptions",
      "ndSchema",
      "parseColumnOptions",
      "planWrite",
      "quoteFieldPath",
      "quoteIdentifier",
      "readColumnDefaults",
      "selectName",
      "sqlStringLiteral",
      "stripEncodingMetadata",
      "tableSchema",
      "validateTableSchema",
      "widenSchema",
    ]);
  });

  it("FormatError carries its code and typed fields, and isFormatError filters by code", () => {
    const err = new format.FormatError("SchemaMismatch", "m", {
      column: "sst",
      key: "units",
      casting: "safe",
      cause: 1,
    });
    expect([err.code, err.column, err.key, err.casting, err.cause, err.name]).toEqual([
      "SchemaMismatch",
      "sst",
      "units",
      "safe",
      1,
      "FormatError",
    ]);
    expect(format.isFormatError(err)).toBe(true);
    expect(format.isFormatError(err, "InvalidTable", "SchemaMismatch")).toBe(true);
    expect(format.isFormatError(err, "InvalidTable")).toBe(false);
    expect(format.isFormatError(new Error("x"))).toBe(false);
  });
});
