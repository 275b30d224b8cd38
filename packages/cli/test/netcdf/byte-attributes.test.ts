/**
 * A char attribute whose bytes are not UTF-8 (the attribute half of
 * netCDF-C's ref_tst_chardata.cdl and nctest's files: a Latin-1 degree sign
 * in `units`) does not refuse the file: with default options it is imported
 * as its bytes read as Latin-1 (netcdf README, "Conformance") and exported
 * byte for byte, as `ncdump` shows the source's.
 */
import { execFileSync } from "node:child_process";
import { ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport } from "./as-it-went-in.js";

const skip = fixtureSkipReason();

/** `ncdump` of a file as bytes, without its first line (which names the file). */
function ncdumpBytes(path: string): Buffer {
  const out = execFileSync("ncdump", [path]);
  return out.subarray(out.indexOf(10));
}

describe.skipIf(skip !== undefined)(`char attributes that are not UTF-8${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  for (const kind of ["nc3", "nc4"] as const) {
    it(`${kind}: the attribute reads as Latin-1 text; the export holds its bytes`, () => {
      const source = ncgenCdl("latin1-attribute", kind, dir);
      const { out, table, warnings } = importExport(source, dir, `latin1-${kind}`);
      expect(warnings).toEqual([]);
      const [row] = cliJson<{ arrays: Record<string, { attrs: Record<string, unknown> }> }[]>(["scan", table]);
      expect(row!.arrays.temp!.attrs.units).toBe("\u00b0C");
      expect(ncdumpBytes(out).equals(ncdumpBytes(source))).toBe(true);
      expect(ncdumpBytes(out).includes(Buffer.from([0xb0, 0x43]))).toBe(true);
    });
  }
});
