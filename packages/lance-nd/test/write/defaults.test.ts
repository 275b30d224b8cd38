import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { columnDefaults, setColumnDefaults } from "../../src/write/column-defaults.js";
import { append, write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readIds, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("defaults");
let tables = 0;
const fresh = (): string => path.join(dir, `d${tables++}.lance`);

const leafOf = (
  schema: {
    fields: { name: string; type: { children: { type: { children: { metadata: Map<string, string> }[] } }[] } }[];
  },
  name: string,
) => schema.fields.find((f) => f.name === name)!.type.children[0]!.type.children[0]!.metadata;

const chl = () => new NdRecordBatch({ chl: NdArray.from(new Float32Array([1, 2]), { dims: { lat: 2 } }) }, { id: "c" });

describe("column defaults", () => {
  it("columnDefaults returns the defaults a create stored", async () => {
    const table = await write(fresh(), sstRows(1), { columnDefaults: { compression: { codec: "zstd", level: 3 } } });
    expect(await columnDefaults(table)).toEqual({ compression: { codec: "zstd", level: 3 } });
  });

  it("a create without columnDefaults stores the library default, zstd level 3 (README, Default encoding); the user's options win option by option", async () => {
    expect(await columnDefaults(await write(fresh(), sstRows(1)))).toEqual({
      compression: { codec: "zstd", level: 3 },
    });
    expect(await columnDefaults(await write(fresh(), sstRows(1), { columnDefaults: { compression: "none" } }))).toEqual(
      { compression: "none" },
    );
    expect(await columnDefaults(await write(fresh(), sstRows(1), { columnDefaults: { bss: "on" } }))).toEqual({
      compression: { codec: "zstd", level: 3 },
      bss: "on",
    });
  });

  it("setColumnDefaults applies to columns added later; existing columns keep their encoding", async () => {
    const table = await write(fresh(), sstRows(1), { columnDefaults: { compression: "zstd" } });
    await setColumnDefaults(table, { compression: "lz4", bss: "auto" });
    expect(await columnDefaults(table)).toEqual({ compression: "lz4", bss: "auto" });
    await append(table, [chl()]);
    await table.refresh();
    expect(leafOf(table.tableSchema as never, "sst").get("lance-encoding:compression")).toBe("zstd");
    expect(leafOf(table.tableSchema as never, "chl").get("lance-encoding:compression")).toBe("lz4");
    expect(leafOf(table.tableSchema as never, "chl").get("lance-encoding:bss")).toBe("auto");
    expect(await readIds(table)).toEqual(["c", "r0"]);
  });

  it("changing the defaults again works (a new generation each time), and so does going back to none", async () => {
    const table = await write(fresh(), sstRows(1));
    await setColumnDefaults(table, { compression: "zstd" });
    await setColumnDefaults(table, { compression: "lz4" });
    expect(await columnDefaults(table)).toEqual({ compression: "lz4" });
    await setColumnDefaults(table, {});
    expect(await columnDefaults(table)).toEqual({});
  });

  it("setting the current defaults commits nothing", async () => {
    const table = await write(fresh(), sstRows(1), { columnDefaults: { compression: "zstd" } });
    expect(await setColumnDefaults(table, { compression: "zstd" })).toBe(1);
  });

  it("bad options fail with InvalidInput naming the option", async () => {
    const table = await write(fresh(), sstRows(1));
    const err = await failure(setColumnDefaults(table, { compression: "gzip" } as never));
    expect(err.code).toBe("InvalidInput");
    expect(err.message).toMatch(/compression/);
    expect(await table.version()).toBe(1);
  });
});
