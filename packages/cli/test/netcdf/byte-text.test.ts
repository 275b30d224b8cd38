/**
 * Char data that is not UTF-8 (netCDF-C's ref_tst_chardata.cdl,
 * nctest's ref_nctest_classic.nc shapes) is imported as byte strings, the
 * `|S<n>` path of Zarr byte strings, with default options and with
 * `--cf raw`, and exported byte for byte: ncdump and xarray's `identical`
 * (decode_cf=False) of the export are the source's.
 */
import { ncdumpBody, ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport, xarrayIdentical } from "./as-it-went-in.js";
import { pythonSkipReason } from "./oracle.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();

describe.skipIf(skip !== undefined)(`char data that is not UTF-8${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  for (const kind of ["nc3", "nc4"] as const) {
    for (const mode of [[], ["--cf", "raw"]]) {
      it(`${kind}${mode.length > 0 ? " --cf raw" : ""}: byte strings in the table, the export byte for byte`, () => {
        const source = ncgenCdl("byte-chardata", kind, dir);
        const { out, table, warnings } = importExport(source, dir, `bytes-${kind}-${mode.length}`, mode);
        expect(warnings).toEqual([]);
        const [row] = cliJson<{ arrays: Record<string, { type: string; values: unknown[] }> }[]>(["scan", table]);
        expect(row!.arrays.charv!.type).toBe("Binary");
        expect(row!.arrays.text).toMatchObject({ type: "Utf8", values: ["ok", "fine"] });
        expect(ncdumpBody(out)).toBe(ncdumpBody(source));
        expect(xarrayIdentical(source, out, false)).toBe("identical");
      });
    }
  }
});
