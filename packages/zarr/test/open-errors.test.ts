/**
 * openZarr on bad input: every failure is a ZarrError whose code says what,
 * whose path and variable say where, with zarrita's or the file system's
 * error as cause. The stores are written here, file by file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { failure as anyFailure } from "@lance-nd/test-helpers";
import { afterAll, describe, expect, it } from "vitest";
import { isZarrError, openZarr } from "../src/index.js";
import type { Selection, ZarrErrorCode } from "../src/index.js";
import { tempDir } from "./python-oracle.js";

const out = tempDir("lance-nd-zarr-errors-");
afterAll(() => out.remove());

/** A store made of `files` (key -> JSON object or raw text/bytes). */
function store(name: string, files: Record<string, unknown>): string {
  const root = join(out.dir, name);
  mkdirSync(root, { recursive: true });
  for (const [key, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, key)), { recursive: true });
    writeFileSync(
      join(root, key),
      typeof content === "string" || content instanceof Uint8Array ? content : JSON.stringify(content),
    );
  }
  return root;
}

function v3Array(dataType: string, shape: number[], dims: string[], extra: Record<string, unknown> = {}) {
  return {
    zarr_format: 3,
    node_type: "array",
    shape,
    data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: shape } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    dimension_names: dims,
    attributes: {},
    ...extra,
  };
}
const group = { zarr_format: 3, node_type: "group", attributes: {} };

async function failure(run: () => Promise<unknown>, code: ZarrErrorCode) {
  const err = await anyFailure(run);
  expect(isZarrError(err, code), `expected ${code}, got ${String(err)}`).toBe(true);
  return err as Error & { path?: string; variable?: string };
}

describe("openZarr refuses what is not a store it can read", () => {
  it("no directory, a file, a directory without Zarr metadata: NotFound with the path", async () => {
    const missing = join(out.dir, "missing.zarr");
    expect((await failure(() => openZarr(missing), "NotFound")).path).toBe(missing);
    const file = join(out.dir, "file.zarr");
    writeFileSync(file, "not a store");
    expect((await failure(() => openZarr(file), "NotFound")).message).toContain("not a directory");
    expect((await failure(() => openZarr(store("empty.zarr", {})), "NotFound")).message).toContain("no Zarr metadata");
    await failure(() => openZarr(""), "InvalidArgument");
    expect((await failure(() => openZarr(missing, { id: "" }), "InvalidArgument")).message).toContain(
      'invalid openZarr options: id = ""',
    );
    expect((await failure(() => openZarr(missing, { cf: true } as never), "InvalidArgument")).message).toContain(
      "options",
    );
  });

  it("metadata that is not JSON, or not Zarr: InvalidStore naming the file and the array", async () => {
    const badJson = store("bad-json.zarr", { ".zgroup": { zarr_format: 2 }, "x/.zarray": "{ not json" });
    expect((await failure(() => openZarr(badJson), "InvalidStore")).message).toContain("x/.zarray");
    const badGroup = store("bad-group.zarr", { "zarr.json": group, "g/zarr.json": "{ not json" });
    expect((await failure(() => openZarr(badGroup, { group: "g" }), "InvalidStore")).message).toContain(
      '"g/zarr.json" is not valid JSON',
    );
    const badShape = store("bad-shape.zarr", { "zarr.json": group, "x/zarr.json": v3Array("int8", [-1], ["n"]) });
    const err = await failure(() => openZarr(badShape), "InvalidStore");
    expect([err.variable, err.path]).toEqual(["x", badShape]);
  });

  it("a chunk size of 0 (v2 chunks, v3 chunk_shape): InvalidStore naming the field and the array", async () => {
    const v2 = store("chunk0-v2.zarr", {
      ".zgroup": { zarr_format: 2 },
      "x/.zarray": { zarr_format: 2, shape: [3], chunks: [0], dtype: "<i2", compressor: null, filters: null },
    });
    const v3 = store("chunk0-v3.zarr", {
      "zarr.json": group,
      "x/zarr.json": v3Array("int8", [3], ["n"], {
        chunk_grid: { name: "regular", configuration: { chunk_shape: [0] } },
      }),
    });
    for (const [path, field] of [
      [v2, "chunks"],
      [v3, "chunk_shape"],
    ] as const) {
      const err = await failure(() => openZarr(path), "InvalidStore");
      expect([err.variable, err.message.includes(`${field} is [0], not a list of sizes of at least 1`)]).toEqual([
        "x",
        true,
      ]);
    }
  });

  it("two arrays that disagree on a dim's size: InvalidStore naming both", async () => {
    const path = store("dims.zarr", {
      "zarr.json": group,
      "a/zarr.json": v3Array("int8", [3], ["n"]),
      "b/zarr.json": v3Array("int8", [4], ["n"]),
    });
    const err = await failure(() => openZarr(path), "InvalidStore");
    expect(err.message).toMatch(/dim "n" has size 4 here but 3 in array "a"/);
    expect(err.variable).toBe("b");
  });

  it("types with no nd-arrow counterpart: UnsupportedType naming the array and the type", async () => {
    const complex = store("complex3.zarr", { "zarr.json": group, "z/zarr.json": v3Array("complex64", [2], ["n"]) });
    const err = await failure(() => openZarr(complex), "UnsupportedType");
    expect([err.variable, err.message.includes("complex64")]).toEqual(["z", true]);
    const hours = store("hours.zarr", {
      ".zgroup": { zarr_format: 2 },
      "t/.zarray": {
        zarr_format: 2,
        shape: [2],
        chunks: [2],
        dtype: "<M8[h]",
        compressor: null,
        filters: null,
        fill_value: null,
        order: "C",
      },
    });
    expect((await failure(() => openZarr(hours), "UnsupportedType")).message).toContain("<M8[h]");
  });

  it("an attribute that is an object: UnsupportedAttribute naming the array and the key; bare NaN attributes read as NaN", async () => {
    const path = store("attrs.zarr", {
      "zarr.json": group,
      "a/zarr.json": v3Array("int8", [1], ["n"], { attributes: { nested: { b: 1 } } }),
    });
    const err = await failure(() => openZarr(path), "UnsupportedAttribute");
    expect([err.variable, err.message.includes('"nested"')]).toEqual(["a", true]);
    const nan = store("nan.zarr", {
      "zarr.json": group,
      "a/zarr.json": JSON.stringify(v3Array("int8", [1], ["n"])).replace(
        '"attributes":{}',
        '"attributes":{"missing":NaN}',
      ),
    });
    expect((await openZarr(nan)).variable("a").attrs.get("missing")?.toJS()).toBeNaN();
  });
});

describe("reads refuse bad arguments and unreadable chunks", () => {
  const path = () =>
    store("reads.zarr", {
      "zarr.json": group,
      "a/zarr.json": v3Array("int16", [4], ["n"]),
      "a/c/0": new Uint8Array(new Int16Array([1, 2, 3, 4]).buffer),
      "b/zarr.json": v3Array("int16", [4], ["n"], {
        codecs: [
          { name: "bytes", configuration: { endian: "little" } },
          { name: "zstd", configuration: { level: 3 } },
        ],
      }),
      "b/c/0": "these bytes are not zstd",
      "c/zarr.json": v3Array("int16", [4], ["n"], {
        codecs: [{ name: "bytes" }, { name: "no-such-codec", configuration: {} }],
      }),
      "c/c/0": "x",
    });

  it("no such array: VariableNotFound listing the arrays; an unknown dim: DimNotFound; an index off the array: InvalidArgument naming the dim", async () => {
    const zarr = await openZarr(path());
    expect((await failure(() => zarr.read("nope"), "VariableNotFound")).message).toContain("[a, b, c]");
    expect((await failure(() => zarr.read("a", { m: [0, 1] }), "DimNotFound")).message).toContain('"m"');
    expect((await failure(() => zarr.read("a", { n: 9 }), "InvalidArgument")).message).toContain('index 9 along "n"');
    expect((await failure(() => zarr.read("a", { n: 4 }), "InvalidArgument")).variable).toBe("a");
    await failure(async () => zarr.chunks({ m: 1 }).next(), "DimNotFound");
    expect([...((await zarr.read("a", { n: [2, 9] })).toArray() as Int16Array)]).toEqual([3, 4]);
    expect([...((await zarr.read("a", { n: [1, 3] })).toArray() as Int16Array)]).toEqual([2, 3]);
  });

  it("a chunk that does not decode, a codec zarrita does not know: ReadFailed naming the array, the cause kept", async () => {
    const zarr = await openZarr(path());
    for (const name of ["b", "c"]) {
      const err = await failure(() => zarr.read(name), "ReadFailed");
      expect(err.variable).toBe(name);
      expect(err.cause).toBeDefined();
    }
  });
});

describe("a chunk whose decoded length differs from its shape fails the read", () => {
  const v2 = (compressor: unknown) => ({
    zarr_format: 2,
    shape: [4],
    chunks: [4],
    dtype: "<f4",
    compressor,
    filters: null,
    fill_value: 0,
    order: "C",
  });
  const randomBytes = (seed: number, n: number) => {
    const out = new Uint8Array(n);
    let s = seed;
    for (let i = 0; i < n; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      out[i] = s >>> 24;
    }
    return out;
  };

  it("a raw chunk of 12 bytes for 4 x f4, random bytes under blosc or zstd: ReadFailed naming the array and the chunk key", async () => {
    const chunks: Record<string, [unknown, Uint8Array]> = {
      raw: [null, new Uint8Array(new Float32Array([1, 2, 3]).buffer)],
      blosc: [{ id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 }, randomBytes(1, 40)],
      zstd: [{ id: "zstd", level: 3 }, randomBytes(2, 40)],
    };
    for (const [name, [compressor, bytes]] of Object.entries(chunks)) {
      const path = store(`corrupt-${name}.zarr`, {
        ".zgroup": { zarr_format: 2 },
        "v/.zarray": v2(compressor),
        "v/.zattrs": { _ARRAY_DIMENSIONS: ["x"] },
        "v/0": bytes,
      });
      const zarr = await openZarr(path);
      for (const window of [{}, { x: [1, 3] }] as Selection[]) {
        const err = await failure(() => zarr.read("v", window), "ReadFailed");
        expect([err.variable, err.path], name).toEqual(["v", path]);
        if (name === "raw")
          expect(err.message).toContain('chunk "v/0" decodes to 3 values where its shape [4] holds 4');
      }
      await failure(async () => zarr.chunks().next(), "ReadFailed");
    }
  });

  it("a v3 chunk cut short names its key with the store's separator", async () => {
    const path = store("short-v3.zarr", {
      "zarr.json": group,
      "a/zarr.json": v3Array("int32", [2, 2], ["y", "x"], {
        chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 2] } },
      }),
      "a/c/0/0": new Uint8Array(new Int32Array([1, 2]).buffer),
      "a/c/1/0": new Uint8Array(new Int32Array([3]).buffer),
    });
    const err = await failure(async () => (await openZarr(path)).read("a"), "ReadFailed");
    expect(err.message).toContain('chunk "a/c/1/0" decodes to 1 values');
  });
});
