/**
 * Users see a dataset's own attributes (CLI README, "info, vars"): the
 * storage attributes import keeps for export (`_DimOrder`,
 * `_VariableOrder`, `_Format`, `_Unlimited`, ...) are left out of `info`
 * and `scan` by default and shown with `--all-attrs`; `id` stays, and
 * export still writes the file back as it was.
 */
import { join } from "node:path";
import { ncdumpBody, ncgenCdl } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cli, cliJson, ensureBuilt, tempDir } from "./harness.js";

const skip = fixtureSkipReason();
const STORAGE = ["_DimOrder", "_VariableOrder", "_Format", "_Unlimited"];

describe.skipIf(skip !== undefined)(`storage attributes hidden by default${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  let source: string;
  let table: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    source = ncgenCdl("zero-records", "nc4", dir);
    table = join(dir, "records.lance");
    expect(cli(["import", source, table]).code).toBe(0);
  });

  it("info lists the dataset's own global attributes and id; --all-attrs the storage ones too", () => {
    const shown = cliJson<{ globalAttrs: string[] }>(["info", table]).globalAttrs;
    expect(shown).toContain("id");
    for (const key of STORAGE) expect(shown).not.toContain(key);
    const all = cliJson<{ globalAttrs: string[] }>(["info", table, "--all-attrs"]).globalAttrs;
    for (const key of STORAGE) expect(all).toContain(key);
  });

  it("scan shows rows without storage attributes; --all-attrs shows them; export writes the file back", () => {
    const [row] = cliJson<{ globalAttrs: Record<string, unknown> }[]>(["scan", table]);
    expect(Object.keys(row!.globalAttrs).filter((k) => k.startsWith("_"))).toEqual([]);
    expect(row!.globalAttrs.id).toBe("zero-records-nc4.nc");
    const [all] = cliJson<{ globalAttrs: Record<string, unknown> }[]>(["scan", table, "--all-attrs"]);
    for (const key of STORAGE) expect(Object.keys(all!.globalAttrs)).toContain(key);
    const text = cli(["scan", table]).stdout;
    for (const key of STORAGE) expect(text).not.toContain(key);
    const out = join(dir, "records.nc");
    expect(cli(["export", table, out]).stderr).toBe("");
    expect(ncdumpBody(out)).toBe(ncdumpBody(source));
  });
});
