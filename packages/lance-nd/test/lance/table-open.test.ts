import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as arrow from "apache-arrow";
import { afterAll, describe, expect, it } from "vitest";
import { isLanceNdError } from "../../src/errors.js";
import { createTable, openTable } from "../../src/lance/table-open.js";
import { countRows, readTableSchema, scanRows } from "../../src/lance/table-read.js";
import { batchOf, collect, ndData, ndField, ndType, sampleBatch } from "./nd-rows.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-open-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const uriOf = (name: string) => path.join(dir, `${name}.lance`);

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    return isLanceNdError(err) ? err.code : `not a LanceNdError: ${String(err)}`;
  }
  return undefined;
}

/** Lance file version from the footer of a data file: ... major u16, minor u16, "LANC". */
function fileVersions(uri: string): string[] {
  const data = path.join(uri, "data");
  return fs.readdirSync(data).map((file) => {
    const bytes = fs.readFileSync(path.join(data, file));
    expect(bytes.subarray(bytes.length - 4).toString()).toBe("LANC");
    return `${bytes.readUInt16LE(bytes.length - 8)}.${bytes.readUInt16LE(bytes.length - 6)}`;
  });
}

function dataBytes(uri: string): number {
  const data = path.join(uri, "data");
  return fs.readdirSync(data).reduce((sum, f) => sum + fs.statSync(path.join(data, f)).size, 0);
}

describe("createTable / openTable", () => {
  it("creates Lance file version 2.2 and keeps field and schema metadata", async () => {
    const uri = uriOf("created");
    const rows = sampleBatch(3, { leafMetadata: { "lance-encoding:compression": "zstd" } });
    await createTable(uri, rows.schema, rows);
    expect(fileVersions(uri)).toEqual(["2.2"]);
    const schema = await readTableSchema(await openTable(uri));
    expect(schema.metadata.get("lance_nd:format")).toBe("1");
    const sst = schema.fields[0]!;
    expect(Object.fromEntries(sst.metadata)).toEqual({
      "ARROW:extension:name": "nd_arrow.array",
      "ARROW:extension:metadata": "{}",
      mine: "x",
    });
    expect(String(sst.type)).toBe(String(rows.schema.fields[0]!.type));
    expect((sst.type.children[0]!.type.children[0] as arrow.Field).metadata.get("lance-encoding:compression")).toBe(
      "zstd",
    );
  });

  it("an empty table keeps the schema metadata too", async () => {
    const uri = uriOf("empty");
    await createTable(uri, sampleBatch(1).schema);
    const table = await openTable(uri);
    expect(await countRows(table)).toBe(0);
    expect((await readTableSchema(table)).metadata.get("lance_nd:format")).toBe("1");
  });

  it("lance-encoding:compression on the leaf is honoured on disk (zstd vs none)", async () => {
    const bytes: Record<string, number> = {};
    for (const codec of ["none", "zstd"]) {
      const type = ndType(new arrow.Float32(), [], { "lance-encoding:compression": codec });
      const values = new Float32Array(64 * 1024).map((_, i) => i % 100);
      const rows = batchOf([ndField("sst", type)], [ndData(type, [{ values, dims: [["x", values.length]] }])]);
      await createTable(uriOf(`enc-${codec}`), rows.schema, rows);
      bytes[codec] = dataBytes(uriOf(`enc-${codec}`));
    }
    expect(bytes.none).toBeGreaterThan(64 * 1024 * 4);
    expect(bytes.zstd).toBeLessThan(bytes.none! / 4);
  });

  it("a null array row with valid, empty children reads back as null", async () => {
    const uri = uriOf("nulls");
    const rows = sampleBatch(3, { nullRows: [1] });
    await createTable(uri, rows.schema, rows);
    const [batch] = await collect(scanRows(await openTable(uri)));
    const sst = batch!.getChild("sst")!;
    expect([0, 1, 2].map((i) => sst.isValid(i))).toEqual([true, false, true]);
  });

  it("create of an existing table is TableExists; overwrite replaces it", async () => {
    const uri = uriOf("twice");
    const rows = sampleBatch(2);
    await createTable(uri, rows.schema, rows);
    expect(await code(createTable(uri, rows.schema, rows))).toBe("TableExists");
    const table = await createTable(uri, rows.schema, sampleBatch(5), { mode: "overwrite" });
    expect(await countRows(table)).toBe(5);
  });

  it("rows that do not match the schema are SchemaMismatch", async () => {
    expect(
      await code(
        createTable(
          uriOf("bad"),
          sampleBatch(1).schema,
          batchOf(
            [new arrow.Field("x", new arrow.Int32())],
            [arrow.makeData({ type: new arrow.Int32(), length: 1, data: new Int32Array(1) })],
          ),
        ),
      ),
    ).toBe("SchemaMismatch");
  });

  it("opening a missing table is TableNotFound", async () => {
    expect(await code(openTable(uriOf("missing")))).toBe("TableNotFound");
  });

  it("file:// and relative uris name the same table", async () => {
    const uri = uriOf("same");
    await createTable(uri, sampleBatch(1).schema, sampleBatch(4));
    expect(await countRows(await openTable(pathToFileURL(uri).href))).toBe(4);
    expect(await countRows(await openTable(path.relative(process.cwd(), uri)))).toBe(4);
  });

  it("memory:// tables can be created and opened again in one process", async () => {
    await createTable("memory://db/mem.lance", sampleBatch(1).schema, sampleBatch(2));
    expect(await countRows(await openTable("memory://db/mem.lance"))).toBe(2);
    expect(await code(openTable("memory://other/mem.lance"))).toBe("TableNotFound");
  });
});
