// Bad input to the command line (the built bundle, as a user runs it): a
// usage error exits 2, a user error exits 1, each with a one-line message
// and no stack trace; the table keeps its version and rows.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@lancedb/lancedb";
import { beforeAll, describe, expect, it } from "vitest";
import { open, write } from "lance-nd";
import { requireBuiltCli, cli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { snapshot } from "./helpers/plain-rows.js";
import { rowFor } from "./helpers/rows.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-cli-"));
const table = join(dir, "t.lance");
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  requireBuiltCli();
  before = await snapshot(await write(table, ["r-1", "r-2", "r-3"].map(rowFor), { stats: true }));
  writeFileSync(join(dir, "not-netcdf.nc"), "CDF\u0001 but not really a netCDF file");
  await (await connect(dir)).createTable("plain", [{ a: 1 }]);
});

const usage: [string, string[]][] = [
  ["an unknown command", ["frobnicate"]],
  ["scan without a table", ["scan"]],
  ["an unknown option", ["scan", "TABLE", "--colour", "red"]],
  ["widen without a type", ["widen", "TABLE", "a"]],
  ["a negative --limit", ["scan", "TABLE", "--limit", "-3"]],
  ["widen to an unknown type", ["widen", "TABLE", "a", "float128"]],
];

const user: [string, string[]][] = [
  ["a table that does not exist", ["info", join("DIR", "missing.lance")]],
  ["a regular file as table", ["info", join("DIR", "not-netcdf.nc")]],
  ["a Lance table that is not lance-nd", ["info", join("DIR", "plain.lance")]],
  ["bad SQL in --where", ["scan", "TABLE", "--where", "a >>> 3 AND"]],
  ["an unknown column in --where", ["scan", "TABLE", "--where", "nope = 1"]],
  ["quotes and unicode in --where", ["scan", "TABLE", "--where", "__global_attrs__.id = 'it''s température `x`"]],
  ["an unknown variable in --project", ["scan", "TABLE", "--project", "nope"]],
  ["a version that does not exist", ["scan", "TABLE", "--version", "999"]],
  ["delete with bad SQL", ["delete", "TABLE", "--where", "id = = 1"]],
  ["widen an unknown variable", ["widen", "TABLE", "nope", "float64"]],
  ["widen to a narrower type", ["widen", "TABLE", "n", "int8"]],
  ["restore a version that does not exist", ["restore", "TABLE", "999"]],
  ["import a file that does not exist", ["import", join("DIR", "missing.nc"), join("DIR", "imported.lance")]],
  ["import a file that is not netCDF", ["import", join("DIR", "not-netcdf.nc"), join("DIR", "imported.lance")]],
];

function run(args: string[]): ReturnType<typeof cli> {
  return cli(args.map((a) => a.replace("TABLE", table).replace("DIR", dir)));
}

async function unchanged(): Promise<void> {
  const after = await snapshot(await open(table));
  expect(after.version).toBe(before.version);
  expect(after.rows).toEqual(before.rows);
}

describe("lance-nd command line", () => {
  it.each(usage)("%s: exit 2, one line, table unchanged", async (_, args) => {
    const { code, stderr } = run(args);
    expect(code, stderr).toBe(2);
    expect(stderr.trim().length).toBeGreaterThan(10);
    expect(stderr).not.toMatch(/\n\s+at /);
    count("badInputs");
    await unchanged();
  });

  it.each(user)("%s: exit 1, one line, no stack trace, table unchanged", async (_, args) => {
    const { code, stderr } = run(args);
    expect(code, stderr).toBe(1);
    expect(stderr.trim().length).toBeGreaterThan(10);
    expect(stderr.trim().split("\n").length, stderr).toBeLessThanOrEqual(2);
    expect(stderr).not.toMatch(/\n\s+at |Panic|\.rs:\d+/);
    count("badInputs");
    await unchanged();
  });

  it("a failed import leaves no table behind", async () => {
    await expect(open(join(dir, "imported.lance"))).rejects.toMatchObject({ code: "TableNotFound" });
  });

  it("the table still reads through the command line", () => {
    const { code, stdout, stderr } = run(["scan", "TABLE", "--json"]);
    expect(code, stderr).toBe(0);
    expect((JSON.parse(stdout) as unknown[]).length).toBe(3);
  });
});
