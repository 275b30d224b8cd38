// Bad input at every public entry point of lance-nd: each is rejected with
// its typed error code and a message that says what and where, and the
// table keeps its version and its rows.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { connect } from "@lancedb/lancedb";
import {
  DataType,
  Field,
  Float64,
  Int8,
  Int16,
  List,
  Schema,
  Struct,
  Uint32,
  Utf8,
  makeData,
  makeVector,
  RecordBatch,
  type Data,
} from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_KEY, encodeRows, tableSchema } from "@lance-nd/format";
import {
  NdArray,
  NdRecordBatch,
  arrayColumnField,
  arrayColumnType,
  encode,
  encodeSchema,
  isNdArrowError,
  type NdArrowErrorCode,
} from "@lance-nd/nd-arrow";
import {
  NdWriter,
  append,
  col,
  isLanceNdError,
  open,
  scan,
  setColumnDefaults,
  widen,
  write,
  type LanceNdErrorCode,
  type NdTable,
} from "lance-nd";
import { createTable } from "lance-nd/internal";
import { count } from "../helpers/counters.js";
import { snapshot } from "../helpers/plain-rows.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-bad-input-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function row(i: number, arrays: Record<string, NdArray> = {}): NdRecordBatch {
  return new NdRecordBatch(
    {
      sst: NdArray.from(new Float32Array([i, i + 0.5, i + 1]), { dims: { x: 3 }, attrs: { units: "K" } }),
      n: NdArray.from(new Int16Array([i]), { dims: {} }),
      ...arrays,
    },
    { id: `r${i}` },
  );
}

/** Runs `call`; expects a LanceNdError with `code` and a message of substance; returns it. */
async function rejects(call: () => unknown, code: LanceNdErrorCode): Promise<Error & { code: string }> {
  let caught: unknown;
  try {
    await call();
  } catch (err) {
    caught = err;
  }
  if (!isLanceNdError(caught))
    throw new Error(`expected LanceNdError ${code}, got ${String(caught)}`, { cause: caught });
  expect(caught.code, caught.message).toBe(code);
  expect(caught.message.length).toBeGreaterThan(15);
  count("badInputs");
  return caught;
}

/** A raw nd_arrow.array column of Float64 values; each row is [values, dim names, dim sizes]. */
function rawColumn(rows: [number[], string[], number[]][]): Data<Struct> {
  const type = arrayColumnType(new Float64());
  const list = (i: number) => type.children[i]!.type as List;
  const offsets = (lengths: number[]) =>
    Int32Array.from([0, ...lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0))]);
  const names = rows.flatMap((r) => r[1]);
  const utf8 = new TextEncoder();
  const nameBytes = names.map((n) => utf8.encode(n));
  const strings = makeData({
    type: new Utf8(),
    length: names.length,
    valueOffsets: offsets(nameBytes.map((b) => b.length)),
    data: Uint8Array.from(nameBytes.flatMap((b) => [...b])),
  });
  const children = [
    makeData({
      type: list(0),
      length: rows.length,
      valueOffsets: offsets(rows.map((r) => r[0].length)),
      child: makeData({
        type: new Float64(),
        length: rows.flatMap((r) => r[0]).length,
        data: Float64Array.from(rows.flatMap((r) => r[0])),
      }),
    }),
    makeData({
      type: list(1),
      length: rows.length,
      valueOffsets: offsets(rows.map((r) => r[1].length)),
      child: strings,
    }),
    makeData({
      type: list(2),
      length: rows.length,
      valueOffsets: offsets(rows.map((r) => r[2].length)),
      child: makeData({
        type: new Uint32(),
        length: rows.flatMap((r) => r[2]).length,
        data: Uint32Array.from(rows.flatMap((r) => r[2])),
      }),
    }),
  ];
  return makeData({ type, length: rows.length, nullCount: 0, children });
}

function batchOf(columns: Record<string, Data>): RecordBatch {
  const fields = Object.entries(columns).map(([name, data]) =>
    DataType.isStruct(data.type) && data.type.children.length === 3 && name !== "bad_layout"
      ? arrayColumnField(name, new Float64())
      : new Field(name, data.type, true),
  );
  const struct = makeData({
    type: new Struct(fields),
    length: Object.values(columns)[0]!.length,
    nullCount: 0,
    children: Object.values(columns),
  });
  return new RecordBatch(new Schema(fields), struct);
}

let table: NdTable;
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  table = await write(path.join(dir, "t.lance"), [row(0), row(1)], { stats: true });
  before = await snapshot(table);
});

/** The table still has its version and rows. */
async function unchanged(): Promise<void> {
  const after = await snapshot(await open(table.uri));
  expect(after.version).toBe(before.version);
  expect(after.rows).toEqual(before.rows);
}

describe("nd-arrow spec rules, through NdWriter.writeBatch (encoded rows)", () => {
  const rules: [string, NdArrowErrorCode, () => RecordBatch][] = [
    [
      "values length is not the product of the dim sizes",
      "InvalidShape",
      () => batchOf({ v: rawColumn([[[1, 2, 3], ["x"], [2]]]) }),
    ],
    [
      "dim_names and dim_sizes of different lengths",
      "InvalidDims",
      () => batchOf({ v: rawColumn([[[1, 2], ["x", "y"], [2]]]) }),
    ],
    [
      "duplicate dim names",
      "InvalidDims",
      () =>
        batchOf({
          v: rawColumn([
            [
              [1, 2, 3, 4],
              ["x", "x"],
              [2, 2],
            ],
          ]),
        }),
    ],
    ["an empty dim name", "InvalidDims", () => batchOf({ v: rawColumn([[[1, 2], [""], [2]]]) })],
    [
      "arrays of one row disagree on a dim size",
      "GridMismatch",
      () => batchOf({ v: rawColumn([[[1, 2], ["x"], [2]]]), w: rawColumn([[[1, 2, 3], ["x"], [3]]]) }),
    ],
    ["a reserved array name", "ReservedName", () => batchOf({ __v: rawColumn([[[1], [], []]]) })],
    [
      "a struct whose children are not the layout",
      "InvalidLayout",
      () => {
        const good = rawColumn([[[1], [], []]]);
        const bad = makeData({
          type: new Struct(good.type.children.slice(0, 2)),
          length: 1,
          nullCount: 0,
          children: good.children.slice(0, 2),
        });
        const field = new Field("bad_layout", bad.type, true, arrayColumnField("x", new Float64()).metadata);
        return new RecordBatch(
          new Schema([field]),
          makeData({ type: new Struct([field]), length: 1, nullCount: 0, children: [bad] }),
        );
      },
    ],
  ];

  it.each(rules)("%s: InvalidInput with the nd-arrow code %s as cause", async (_, code, make) => {
    const writer = await NdWriter.append(table);
    const err = await rejects(() => writer.writeBatch(make()), "InvalidInput");
    expect(isNdArrowError(err.cause, code), String(err.cause)).toBe(true);
    await writer.finish();
    await unchanged();
  });

  it("an unsupported value type is refused where the array is made (UnsupportedType)", () => {
    let caught: unknown;
    try {
      const lists = makeData({
        type: new List(new Field("item", new Float64())),
        length: 0,
        nullCount: 0,
        valueOffsets: new Int32Array(1),
        child: makeData({ type: new Float64(), length: 0 }),
      });
      NdArray.from(makeVector(lists), { dims: { x: 0 } });
    } catch (err) {
      caught = err;
    }
    expect(isNdArrowError(caught, "UnsupportedType"), String(caught)).toBe(true);
    expect(String(caught)).toContain("List<Float64>");
    count("badInputs");
  });

  it("nd-arrow constructors check the same rules (typed NdArrowError codes)", () => {
    const cases: [NdArrowErrorCode, () => unknown][] = [
      ["InvalidShape", () => NdArray.from(new Float32Array(5), { dims: { x: 2, y: 3 } })],
      [
        "InvalidDims",
        () =>
          NdArray.from(new Float32Array(4), {
            dims: [
              ["x", 2],
              ["x", 2],
            ],
          }),
      ],
      ["InvalidDims", () => NdArray.from(new Float32Array(2), { dims: [["", 2]] })],
      [
        "GridMismatch",
        () =>
          new NdRecordBatch({
            a: NdArray.from(new Float32Array(2), { dims: { x: 2 } }),
            b: NdArray.from(new Float32Array(3), { dims: { x: 3 } }),
          }),
      ],
      ["ReservedName", () => new NdRecordBatch({ __a: NdArray.from(new Float32Array(1), { dims: {} }) })],
    ];
    for (const [code, make] of cases) {
      let caught: unknown;
      try {
        make();
      } catch (err) {
        caught = err;
      }
      expect(isNdArrowError(caught, code), `${code}: ${String(caught)}`).toBe(true);
      count("badInputs");
    }
  });
});

describe("write, append and NdWriter", () => {
  const cases: [string, LanceNdErrorCode, () => unknown][] = [
    ["create over an existing table", "TableExists", () => write(table.uri, [row(9)])],
    ["unknown mode", "InvalidInput", () => write(table.uri, [row(9)], { mode: "upsert" as never })],
    ["unknown casting", "InvalidInput", () => append(table, [row(9)], { casting: "unsafe" as never })],
    ["unknown option", "InvalidInput", () => append(table, [row(9)], { colour: "red" } as never)],
    ["negative targetFragmentBytes", "InvalidInput", () => append(table, [row(9)], { targetFragmentBytes: -1 })],
    ["writeParallelism 0", "InvalidInput", () => append(table, [row(9)], { writeParallelism: 0 })],
    [
      "unknown codec in columnDefaults",
      "InvalidInput",
      () => append(table, [row(9)], { columnDefaults: { compression: "brotli" as never } }),
    ],
    ["stats on an append", "InvalidInput", () => write(table.uri, [row(9)], { mode: "append", stats: true })],
    [
      "storageOptions that are not strings",
      "InvalidInput",
      () => append(table, [row(9)], { storageOptions: { timeout: 5 as never } }),
    ],
    [
      "Float64 into Float32, casting no",
      "SchemaMismatch",
      () => append(table, [row(9, { sst: NdArray.from(new Float64Array([1]), { dims: { x: 1 } }) })]),
    ],
    [
      "Float64 into Float32, casting safe",
      "SchemaMismatch",
      () =>
        append(table, [row(9, { sst: NdArray.from(new Float64Array([1]), { dims: { x: 1 } }) })], { casting: "safe" }),
    ],
    [
      "Utf8 into Float32, casting same_kind",
      "SchemaMismatch",
      () => append(table, [row(9, { sst: NdArray.from(["a"], { dims: { x: 1 } }) })], { casting: "same_kind" }),
    ],
    [
      "Utf8 into Float32, casting promote",
      "SchemaMismatch",
      () => append(table, [row(9, { sst: NdArray.from(["a"], { dims: { x: 1 } }) })], { casting: "promote" }),
    ],
    [
      "Int32 70000 into Int16, casting same_kind (overflow)",
      "SchemaMismatch",
      () =>
        append(table, [row(9, { n: NdArray.from(new Int32Array([70000]), { dims: {} }) })], { casting: "same_kind" }),
    ],
    [
      "attribute units as a number where the table has a string",
      "SchemaMismatch",
      () =>
        append(table, [row(9, { sst: NdArray.from(new Float32Array([1]), { dims: { x: 1 }, attrs: { units: 5 } }) })]),
    ],
    ["global attribute id as a number", "SchemaMismatch", () => append(table, [new NdRecordBatch({}, { id: 5 })])],
    [
      "a good row, then a bad one: nothing of the call stays",
      "SchemaMismatch",
      () => append(table, [row(7), row(8, { n: NdArray.from(["x"], { dims: {} }) })]),
    ],
    [
      "writeBatch of a batch that is not nd-arrow",
      "InvalidInput",
      async () => {
        const writer = await NdWriter.append(table);
        try {
          await writer.writeBatch(
            new RecordBatch({ plain: makeData({ type: new Float64(), length: 1, data: new Float64Array(1) }) }),
          );
        } finally {
          await writer.abort();
        }
      },
    ],
    [
      "write after finish",
      "InvalidInput",
      async () => {
        const writer = await NdWriter.append(table);
        await writer.finish();
        await writer.write(row(9));
      },
    ],
  ];

  it.each(cases)("%s: %s, table unchanged", async (_, code, call) => {
    await rejects(call, code);
    await unchanged();
  });

  it("a rejected row leaves the NdWriter usable; abort leaves the table as it was", async () => {
    const writer = await NdWriter.append(table);
    await writer.write(row(5));
    await rejects(
      () => writer.write(row(6, { n: NdArray.from(new Float64Array([1.5]), { dims: {} }) })),
      "SchemaMismatch",
    );
    await writer.write(row(7));
    await writer.abort();
    await unchanged();
  });
});

describe("names", () => {
  const names = ["it's", 'say "hi"', "a.b", "a:b", "with space", "température", "温度", "emoji😀", "-", "0lead"];

  it.each(names)("variable %j: stored, read and filtered back, or InvalidInput", async (name) => {
    const uri = path.join(dir, `names-${Buffer.from(name).toString("hex")}.lance`);
    const batch = new NdRecordBatch(
      { [name]: NdArray.from(new Float64Array([1, 2]), { dims: { [name]: 2 }, attrs: { [name]: name } }) },
      { id: name, [name]: 1 },
    );
    let stored: NdTable;
    try {
      stored = await write(uri, [batch], { stats: true });
    } catch (err) {
      expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
      count("badInputs");
      await expect(open(uri)).rejects.toMatchObject({ code: "TableNotFound" });
      return;
    }
    const [back] = await scan(stored)
      .project([name])
      .filterExpr(col(["__global_attrs__", "id"]).eq(name))
      .toArray();
    expect(back?.get(name)?.attr(name)).toBe(name);
    expect(back?.globalAttr(name)).toBe(1);
    expect(await scan(stored).filterExpr(col(name).isNotNull()).toArray()).toHaveLength(1);
    count("rowsVerified");
  });

  // Was a bug: a variable whose name holds a backtick was written, then every
  // scan failed ("No field named "back`tick""). The write refuses it now.
  it('variable "back`tick": stored and read back, or InvalidInput at write', async () => {
    const uri = path.join(dir, "names-backtick.lance");
    const batch = new NdRecordBatch(
      { "back`tick": NdArray.from(new Float64Array([1, 2]), { dims: { x: 2 } }) },
      { id: "a" },
    );
    let stored: NdTable;
    try {
      stored = await write(uri, [batch]);
    } catch (err) {
      expect(isLanceNdError(err, "InvalidInput"), String(err)).toBe(true);
      return;
    }
    expect(await scan(stored).toArray()).toHaveLength(1);
  });
});

describe("empty and huge input", () => {
  it("no rows: append commits nothing", async () => {
    await append(table, []);
    await unchanged();
  });

  it("a batch without arrays but with global attributes is one row", async () => {
    const t = await write(path.join(dir, "empty-attrs.lance"), [
      new NdRecordBatch({}, { id: "e" }),
      new NdRecordBatch({}),
    ]);
    expect(await scan(t).toArray()).toHaveLength(2);
  });

  // Was a bug: rows with neither arrays nor global attributes were dropped
  // when they were all the rows of a create (a table without columns keeps
  // no rows in Lance). The write refuses them now, before creating anything.
  it("a create of only batches without arrays or attributes keeps the rows (or refuses them)", async () => {
    const uri = path.join(dir, "empty.lance");
    for (const rows of [[new NdRecordBatch({})], [new NdRecordBatch({}), new NdRecordBatch({})]]) {
      await rejects(() => write(uri, rows), "InvalidInput");
      await rejects(() => open(uri), "TableNotFound");
    }
  });

  it("huge attributes (a 4 MiB string, a list of 500 000 floats) round-trip", async () => {
    const big = "x".repeat(4 * 1024 * 1024);
    const list = Float64Array.from({ length: 500_000 }, (_, i) => i / 3);
    const t = await write(path.join(dir, "huge.lance"), [
      new NdRecordBatch({ a: NdArray.from(new Float32Array(1), { dims: {}, attrs: { big, list } }) }, { big }),
    ]);
    const [back] = await scan(t).toArray();
    expect(back?.get("a")?.attr("big")).toBe(big);
    expect(back?.globalAttr("big")).toBe(big);
    expect(Array.from(back?.get("a")?.attr("list") as ArrayLike<number>)).toEqual(Array.from(list));
    count("rowsVerified");
  });
});

describe("reads and maintenance", () => {
  const cases: [string, LanceNdErrorCode, () => unknown][] = [
    ["filter with bad SQL", "InvalidInput", () => scan(table).filter("sst >>> 3 AND").toArray()],
    ["filter on an unknown variable", "InvalidInput", () => scan(table).filter("nope > 1").toArray()],
    [
      "filter on an unknown global attribute",
      "InvalidInput",
      () => scan(table).filter("__global_attrs__.nope = 'a'").toArray(),
    ],
    ["lanceFilter with bad SQL", "InvalidInput", () => scan(table).lanceFilter("((").toArray()],
    ["project an unknown variable", "InvalidInput", () => scan(table).project(["nope"]).toArray()],
    ["project a string", "InvalidInput", () => scan(table).project("sst" as never)],
    ["negative limit", "InvalidInput", () => scan(table).limit(-1)],
    ["batchSize 0", "InvalidInput", () => scan(table).batchSize(0)],
    ["batchSizeBytes 1.5", "InvalidInput", () => scan(table).batchSizeBytes(1.5)],
    ["decodeParallelism 0", "InvalidInput", () => scan(table).decodeParallelism(0)],
    ["batchReadahead -1", "InvalidInput", () => scan(table).batchReadahead(-1)],
    ["filterExpr of a string", "InvalidInput", () => scan(table).filterExpr("n = 0" as never)],
    ["filter on a nested field of a variable", "InvalidInput", () => scan(table).filter("sst.values = 1").toArray()],
    ["delete with bad SQL", "InvalidInput", () => table.delete("id = = 1")],
    ["delete on an unknown column", "InvalidInput", () => table.delete("nope = 1")],
    ["widen an unknown variable", "InvalidInput", () => widen(table, "nope", new Float64())],
    ["widen to a narrower type", "SchemaMismatch", () => widen(table, "n", new Int8())],
    ["widen Int16 to Utf8", "SchemaMismatch", () => widen(table, "n", new Utf8())],
    ["checkout a version that does not exist", "InvalidInput", () => table.checkout(999)],
    ["checkout version 0", "InvalidInput", () => table.checkout(0)],
    ["restore version -1", "InvalidInput", () => table.restore(-1)],
    [
      "setColumnDefaults with an unknown codec",
      "InvalidInput",
      () => setColumnDefaults(table, { compression: "snappy" as never }),
    ],
    ["compact with an unknown option", "InvalidInput", () => table.compact({ targetRows: 5 } as never)],
    ["cleanupOldVersions without olderThan", "InvalidInput", () => table.cleanupOldVersions({} as never)],
    ["append to a checked-out view", "InvalidInput", async () => append(await table.checkout(1), [row(9)])],
    ["delete on a checked-out view", "InvalidInput", async () => (await table.checkout(1)).delete("n = 0")],
    ["widen on a checked-out view", "InvalidInput", async () => widen(await table.checkout(1), "sst", new Float64())],
  ];

  it.each(cases)("%s: %s, table unchanged", async (_, code, call) => {
    await rejects(call, code);
    await unchanged();
  });

  it("a same-type widen changes nothing", async () => {
    await widen(table, "n", new Int16());
    await unchanged();
  });
});

describe("open", () => {
  it("a path that does not exist: TableNotFound", async () => {
    await rejects(() => open(path.join(dir, "missing.lance")), "TableNotFound");
  });

  it("a folder of other files: TableNotFound", async () => {
    const folder = path.join(dir, "folder.lance");
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, "notes.txt"), "not a table");
    await rejects(() => open(folder), "TableNotFound");
  });

  it("a regular file: TableNotFound or InvalidTable", async () => {
    const file = path.join(dir, "file.lance");
    fs.writeFileSync(file, "not a table");
    await expect(open(file)).rejects.toSatisfy((err) => isLanceNdError(err, "TableNotFound", "InvalidTable"));
    count("badInputs");
  });

  it("a lance-nd table of another format version: InvalidTable", async () => {
    const schema = tableSchema(encodeSchema([row(0)]));
    const v2 = new Schema(schema.fields, new Map([...schema.metadata, [FORMAT_KEY, "2"]]));
    const uri = path.join(dir, "v2.lance");
    await createTable(uri, v2, encodeRows([row(0)], schema));
    const err = await rejects(() => open(uri), "InvalidTable");
    expect(err.message).toMatch(/2/);
  });

  it("a Lance table that is not lance-nd: InvalidTable", async () => {
    const db = await connect(dir);
    await db.createTable("plain", [{ a: 1, b: "x" }]);
    await rejects(() => open(path.join(dir, "plain.lance")), "InvalidTable");
  });

  // Was a bug: a non-string storage option reached lancedb (InvalidTable
  // "connect failed: ..."); open validates its options like write now.
  it("storageOptions that are not strings: InvalidInput", async () => {
    await rejects(() => open(table.uri, { storageOptions: { timeout: 5 as never } }), "InvalidInput");
  });

  // Was a bug: open(42) threw a plain TypeError ("local.trim is not a function").
  it("a uri that is not a string: InvalidInput", async () => {
    await rejects(() => open(42 as never), "InvalidInput");
  });

  it("a table name Lance refuses: InvalidInput", async () => {
    await rejects(() => write(path.join(dir, "a b.lance"), [row(0)]), "InvalidInput");
  });
});

it("the encoded rows used above are valid nd-arrow (sanity)", () => {
  expect(encode([row(0)]).numRows).toBe(1);
});
