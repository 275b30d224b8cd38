/**
 * NIL values of NC_STRING variables (ncdump's `NIL`, a NULL string) are
 * imported with default options as nulls, apart from empty strings
 * (ncdump's `_`), and exported as NIL: `ncdump` of the export is the
 * source's.
 */
import { ncdumpBody, ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport } from "./as-it-went-in.js";

const skip = fixtureSkipReason();

describe.skipIf(skip !== undefined)(`NIL strings${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it("NIL values are nulls in the table and NIL in the export; empty strings stay empty", () => {
    const source = ncgenCdl("nil-strings", "nc4", dir);
    const { out, table, warnings } = importExport(source, dir, "nil-strings");
    expect(warnings).toEqual([]);
    const [row] = cliJson<{ arrays: Record<string, { values: unknown[] }> }[]>(["scan", table]);
    expect(row!.arrays.s!.values).toEqual(["a", null, "", "d"]);
    expect(row!.arrays.grid!.values).toEqual([null, "x", "", null, "y", "", null, "z"]);
    expect(ncdumpBody(out)).toBe(ncdumpBody(source));
  });
});
