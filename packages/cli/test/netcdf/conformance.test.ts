import { join } from "node:path";
import { CDL_ROUND_TRIP_CASES, ncdumpBody, ncdumpKind, ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { pythonSkipReason, xarrayDump } from "./oracle.js";

const skip = fixtureSkipReason();
const noPython = pythonSkipReason();

describe.skipIf(skip !== undefined)(`CDL files imported and exported${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  const pairs: [source: string, exported: string][] = [];
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  for (const [name, kinds] of CDL_ROUND_TRIP_CASES) {
    for (const kind of kinds) {
      it(`${name} (${kind}): ncdump of the export, header and data, is the source's`, () => {
        const source = ncgenCdl(name, kind, dir);
        const table = join(dir, `${name}-${kind}.lance`);
        const out = join(dir, `${name}-${kind}-exported.nc`);
        const imported = cli(["import", source, table]);
        expect(imported.stderr, `${name} import`).toBe("");
        expect(imported.code).toBe(0);
        // The row id is the file name, whatever the file's own id.
        const exported = cli(["export", table, out, "--where", `__global_attrs__.id = '${name}-${kind}.nc'`]);
        expect(exported.stderr, `${name} export`).toBe("");
        expect(exported.code).toBe(0);
        expect(ncdumpKind(out)).toBe(ncdumpKind(source));
        expect(ncdumpBody(out)).toBe(ncdumpBody(source));
        pairs.push([source, out]);
      });
    }
  }

  it.skipIf(noPython !== undefined)("xarray sees every export as its source: dims, attributes, values", () => {
    expect(pairs.length).toBeGreaterThan(10);
    const dumps = xarrayDump(...pairs.flat());
    for (const [i, [source]] of pairs.entries()) expect(dumps[2 * i + 1], source).toEqual(dumps[2 * i]);
  });

  it("a variable whose name Lance refuses is stored under its reversible column name", () => {
    const table = join(dir, "dotted-names.lance");
    expect(cli(["import", ncgenCdl("dotted-names", "nc4", dir), table]).code).toBe(0);
    const vars = cli(["vars", table]);
    expect(vars.code).toBe(0);
    expect(vars.stdout).toContain("var%2Ename%2Edots");
    expect(vars.stdout).toContain("p%252E");
  });

  it("char data that is not UTF-8 is imported as byte strings and exported byte for byte", () => {
    for (const kind of ["nc3", "nc4"] as const) {
      const source = ncgenCdl("latin1-values", kind, dir);
      const table = join(dir, `latin1-${kind}.lance`);
      const out = join(dir, `latin1-${kind}-exported.nc`);
      const run = cli(["import", source, table]);
      expect(run.stderr).toBe("");
      expect(cli(["export", table, out]).stderr).toBe("");
      expect(ncdumpBody(out)).toBe(ncdumpBody(source));
    }
  });
});
