/**
 * `import --encoding key=value` takes every column setting `defaults --set`
 * takes; a create stores them as the table's defaults (`defaults --json`
 * shows them), and an unknown key is a usage error naming the known ones.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

describe("import --encoding", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    expect(cli(["demo"], dir).code).toBe(0);
    expect(cli(["export", "lance-nd-demo/ocean.lance", "ocean.nc"], dir).code).toBe(0);
  });

  it("every setting of defaults --set, repeatable, over --compression; the table keeps them", () => {
    const run = cli(
      [
        "import",
        "ocean.nc",
        "t.lance",
        "--compression",
        "zstd:1",
        "--encoding",
        "compression=lz4,bss=off",
        "--encoding",
        "structural-encoding=miniblock,rle-threshold=0.5",
      ],
      dir,
    );
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    const defaults = JSON.parse(cli(["defaults", "t.lance", "--json"], dir).stdout) as Record<string, unknown>;
    expect(defaults).toMatchObject({
      compression: "lz4",
      bss: "off",
      "structural-encoding": "miniblock",
      "rle-threshold": "0.5",
    });
  });

  it("an unknown key is a usage error naming the known ones", () => {
    const run = cli(["import", "ocean.nc", "u.lance", "--encoding", "level=3"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'unknown setting "level" (known: compression, compression-level, bss, structural-encoding, rle-threshold)',
    );
  });
});
