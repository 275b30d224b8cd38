import { beforeAll, describe, expect, it } from "vitest";
import { type Refusal, expectRefusals } from "./checked-runs.js";
import { ensureFixtures, fixture, fixtureSkipReason } from "../fixtures.js";
import { cli, cliJson, ensureBuilt, oceanAndWavesTable, tableState } from "./harness.js";

const skip = fixtureSkipReason();

describe.skipIf(skip)("maintenance", () => {
  let table: string;
  beforeAll(() => {
    ensureFixtures();
    ensureBuilt();
    table = oceanAndWavesTable(fixture("ocean-classic.nc"), fixture("waves-nc4.nc"));
  });

  it("delete, versions, restore, compact, cleanup: the life of a table", () => {
    const start = tableState(table);
    expect(start.rows).toBe(4);

    const deleted = cliJson<{ deleted: number; rows: number; version: number }>([
      "delete",
      table,
      "--where",
      "__global_attrs__.id = 'waves-nc4.nc'",
    ]);
    expect(deleted).toMatchObject({ deleted: 1, rows: 3 });
    expect(deleted.version).toBeGreaterThan(start.version);

    const list = cliJson<{ version: number; timestamp: string; rows: number | null }[]>(["versions", table]);
    expect(list.at(-1)).toMatchObject({ version: deleted.version, rows: 3 });
    expect(cli(["versions", table]).stdout).toMatch(/^version {2}time \(UTC\)\s+rows\n/);

    const restored = cliJson<{ version: number; rows: number }>(["restore", table, String(start.version)]);
    expect(restored.rows).toBe(4);
    expect(restored.version).toBeGreaterThan(deleted.version);

    const indexed = cliJson<{ version: number; indexes: { key: string; unindexedRows: number }[] }>([
      "index",
      table,
      "id",
    ]);
    expect(indexed.version).toBeGreaterThan(restored.version);
    expect(indexed.indexes).toEqual([{ key: "id", unindexedRows: 0 }]);
    expect(cli(["index", table]).stdout).toBe("key index: id\n");
    const unknown = cli(["index", table, "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^lance-nd: cannot index .*: indexGlobalAttr: the table has no global attribute "nope"/,
    );
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(tableState(table).version).toBe(indexed.version);

    const compacted = cliJson<{ fragmentsRemoved: number; fragmentsAdded: number; version: number }>([
      "compact",
      table,
    ]);
    expect(compacted.fragmentsRemoved).toBeGreaterThanOrEqual(compacted.fragmentsAdded);
    expect(tableState(table).rows).toBe(4);

    const cleaned = cliJson<{ versionsRemoved: number; versions: number; keptByTags: unknown[] }>([
      "cleanup",
      table,
      "--older-than",
      "0s",
    ]);
    expect(cleaned.versionsRemoved).toBeGreaterThan(0);
    expect(cleaned.versions).toBeLessThan(list.length + 3);
    expect(cleaned.keptByTags).toEqual([]);
    expect(tableState(table).rows).toBe(4);

    // A tag holds its version back; cleanup says which tag and how to let it go.
    const tagged = tableState(table).version;
    expect(cli(["tag", table, "kept"]).code).toBe(0);
    expect(cli(["defaults", table, "--set", "compression=lz4"]).code).toBe(0);
    expect(tableState(table).version).toBeGreaterThan(tagged);
    const held = cli(["cleanup", table, "--older-than", "0s"]);
    expect(held.stdout).toContain(
      `tags keep 1 older version: kept (version ${tagged}) (lance-nd tag <table> --delete <name>`,
    );
    expect(tableState(table).rows).toBe(4);
  });

  it("widen changes a variable's type and keeps its values", () => {
    const run = cli(["widen", table, "count", "int64"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^widened "count" of .* to Int64: version \d+/);
    const vars = cliJson<{ name: string; type: string }[]>(["vars", table]);
    expect(vars.find((v) => v.name === "count")?.type).toBe("Int64");
    const rows = cliJson<{ arrays: { count: { values: string[] } } }[]>([
      "scan",
      table,
      "--project",
      "count",
      "--limit",
      "1",
    ]);
    expect(rows[0]!.arrays.count.values).toEqual(["7"]);
  });

  it("defaults: shows and changes the encoding defaults of new columns", () => {
    expect(cli(["defaults", table]).code).toBe(0);
    const set = cli(["defaults", table, "--set", "compression=zstd,compression-level=5", "--set", "bss=on"]);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe("compression=zstd\ncompression-level=5\nbss=on\n");
    expect(cliJson<Record<string, string>>(["defaults", table])).toEqual({
      compression: "zstd",
      "compression-level": "5",
      bss: "on",
    });
  });

  it("failing maintenance exits with 1 with one line and changes nothing", () => {
    const before = tableState(table);
    const cases: Refusal[] = [
      [
        "a delete with a bad filter",
        ["delete", table, "--where", "no_such_column = 1"],
        /^lance-nd: cannot delete from .*\(.*no_such_column/,
      ],
      [
        "a restore of a version that does not exist",
        ["restore", table, "999"],
        /^lance-nd: cannot restore version 999 of /,
      ],
      ["a widen to a narrower type", ["widen", table, "sst", "int8"], /^lance-nd: cannot widen "sst" of .* to Int8 \(/],
      ["a widen of an unknown variable", ["widen", table, "salinity", "float64"], /salinity/],
      [
        "defaults of a missing table",
        ["defaults", `${table}-missing`, "--set", "bss=on"],
        /^lance-nd: cannot change the defaults of .*-missing \(.*not found/,
      ],
    ];
    expectRefusals(cases);
    expect(tableState(table)).toEqual(before);
  });
});
