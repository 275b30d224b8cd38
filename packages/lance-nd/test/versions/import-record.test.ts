/**
 * The record of complete imports (README.md, "Complete imports"): which
 * versions are half-imports, the complete versions around one, and which
 * records a cleanup may drop. The CLI's test/commands/import-versions.test.ts
 * checks the same on real imports.
 */
import { describe, expect, it } from "vitest";
import { halfImportOf, importRanges, isImportRecordTag, recordsToDrop } from "../../src/versions/import-record.js";

const tags = [
  { name: "lance-nd-imported-0-3", version: 3 },
  { name: "lance-nd-imported-3-7", version: 7 },
  { name: "v1", version: 5 },
];

describe("import records", () => {
  it("a record tag names its import's start and last version; user tags are no records", () => {
    expect(importRanges(tags)).toEqual([
      { start: 0, end: 3 },
      { start: 3, end: 7 },
    ]);
    expect(tags.map((t) => isImportRecordTag(t.name))).toEqual([true, true, false]);
  });

  it("the versions after an import's start and before its end are half-imports, with the complete versions around them", () => {
    const ranges = importRanges(tags);
    const versions = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(versions.map((v) => halfImportOf(v, ranges, versions) !== null)).toEqual([
      true,
      true,
      false,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(halfImportOf(1, ranges, versions)).toEqual({ completeBefore: null, completeAfter: 3 });
    expect(halfImportOf(5, ranges, versions)).toEqual({ completeBefore: 3, completeAfter: 7 });
    // After a cleanup removed 1-3, the second import's half-imports keep their mark.
    expect(halfImportOf(5, ranges, [4, 5, 6, 7, 8])).toEqual({ completeBefore: null, completeAfter: 7 });
  });

  it("a cleanup drops the records of imports none of whose versions stay", () => {
    expect(recordsToDrop(tags, new Set([4, 5, 6, 7, 8]))).toEqual(["lance-nd-imported-0-3"]);
    expect(recordsToDrop(tags, new Set([8]))).toEqual(["lance-nd-imported-0-3", "lance-nd-imported-3-7"]);
    expect(recordsToDrop(tags, new Set([2, 3, 4, 5, 6, 7, 8]))).toEqual([]);
  });
});
