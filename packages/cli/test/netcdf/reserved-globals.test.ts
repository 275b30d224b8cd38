/**
 * A source's own global attributes named as the ones lance-nd sets on rows
 * (`id`, `chunk_offset`, `_SourceFile`) are kept under the reserved escape
 * (`_SourceId`, `_Source:<name>`) and given back on export (CLI README,
 * "import"): a netCDF file from ncgen and a Zarr store written by xarray,
 * each imported with default options and exported, is identical to its
 * source for xarray (and ncdump).
 */
import { join } from "node:path";
import { ncdumpBody, ncgenCdl, runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cli, cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport, xarrayIdentical } from "./as-it-went-in.js";
import { pythonSkipReason } from "./oracle.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();

const ZARR_IDENTICAL = `
import sys, xarray as xr
a, b = (xr.open_zarr(p, decode_cf=False) for p in sys.argv[1:3])
a.attrs.pop("chunk_offset")
print("identical" if a.identical(b) else repr(a) + "\\n" + repr(b))
`;

describe.skipIf(skip !== undefined)(
  `a source's own global attributes of reserved names${skip ? ` (${skip})` : ""}`,
  () => {
    let dir: string;
    beforeAll(() => {
      ensureBuilt();
      dir = tempDir();
    });

    it("netCDF: id, chunk_offset, _SourceFile and _SourceId come back, in their order, also cut into rows", () => {
      const source = ncgenCdl("reserved-globals", "nc4", dir);
      for (const args of [[], ["--chunk", "x=1"]]) {
        const { out, table } = importExport(source, dir, `reserved-${args.length}`, args);
        const [row] = cliJson<{ globalAttrs: Record<string, unknown> }[]>(["scan", table, "--limit", "1"]);
        expect(row!.globalAttrs).toMatchObject({
          "_Source:chunk_offset": [7, 8],
          _SourceId: "own-id",
          "_Source:_SourceFile": "elsewhere.nc",
          "_Source:_SourceId": "an-older-id",
          id: "reserved-globals-nc4.nc",
        });
        expect(ncdumpBody(out)).toBe(ncdumpBody(source));
        expect(xarrayIdentical(source, out, false)).toBe("identical");
      }
    });

    it("Zarr: a store's own id comes back in the Zarr export (its own chunk_offset, which rows cannot carry, is left out)", () => {
      const store = join(dir, "own.zarr");
      runPython([
        "-c",
        `import sys, numpy as np, xarray as xr
xr.Dataset({"sst": ("x", np.arange(4, dtype="int16"))}, attrs={"id": "my-own-id", "chunk_offset": 3, "title": "t"}).to_zarr(sys.argv[1])`,
        store,
      ]);
      const table = join(dir, "own-zarr.lance");
      expect(cli(["import", store, table]).stderr).toBe("");
      const out = join(dir, "own-back.zarr");
      const exported = cli(["export", table, out, "--format", "zarr", "--zarr-version", "2"]);
      expect(exported.stderr).toBe("");
      expect(runPython(["-c", ZARR_IDENTICAL, store, out]).trim()).toBe("identical");
    });
  },
);
