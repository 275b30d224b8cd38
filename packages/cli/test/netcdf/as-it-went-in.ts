/**
 * What the "comes back as it went in" tests share: a source imported with
 * default options (or the ones given) and exported again, and xarray's
 * `identical` of two files, the oracle they are held to.
 */
import { join } from "node:path";
import { runPython } from "@lance-nd/test-helpers";
import { expect } from "vitest";
import { cli } from "../commands/harness.js";

/** What one import and export of a source did. */
export interface RoundTrip {
  /** The exported file. */
  readonly out: string;
  /** The table. */
  readonly table: string;
  /** stderr of the import, one line each (empty lines dropped). */
  readonly warnings: string[];
}

/**
 * Imports `source` into a new table in `dir` (`importArgs` after the paths),
 * then exports it to `<name>.nc`; either failing fails the test.
 */
export function importExport(source: string, dir: string, name: string, importArgs: string[] = []): RoundTrip {
  const table = join(dir, `${name}.lance`);
  const out = join(dir, `${name}-exported.nc`);
  const imported = cli(["import", source, table, ...importArgs]);
  expect(imported.code, `import ${name}: ${imported.stderr}`).toBe(0);
  const exported = cli(["export", table, out]);
  expect(exported.stderr, `export ${name}`).toBe("");
  expect(exported.code).toBe(0);
  return { out, table, warnings: imported.stderr.split("\n").filter((l) => l !== "") };
}

const IDENTICAL = `
import sys, xarray as xr
a, b, decode = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with xr.open_dataset(a, decode_cf=decode) as x, xr.open_dataset(b, decode_cf=decode) as y:
    print("identical" if x.identical(y) else repr(x) + "\\n" + repr(y))
`;

/**
 * "identical" when xarray's `Dataset.identical` holds for the two files
 * (names, dims, values, attributes with their types), opened with
 * `decode_cf` as given; otherwise both datasets as xarray prints them.
 */
export function xarrayIdentical(a: string, b: string, decodeCf: boolean): string {
  return runPython(["-c", IDENTICAL, a, b, decodeCf ? "1" : "0"]).trim();
}
