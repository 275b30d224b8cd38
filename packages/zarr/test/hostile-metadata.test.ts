/**
 * Hostile Zarr metadata never reads as wrong values: a fill value the data
 * type cannot hold (written by xarray, then edited) is `InvalidStore`
 * naming the array, and a shard index entry past the end of its shard (a
 * shard of fixtures/v3_spec_stores.py, its index edited and its crc32c
 * made again) is `ReadFailed` naming the array and the chunk, and so is a
 * blosc chunk zarr-python wrote, cut short of its header's `cbytes`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isZarrError, openZarr, type ZarrErrorCode } from "../src/index.js";
import { fixtureStores, python, skipOracle } from "./python-oracle.js";

const out = fixtureStores("v3_spec_stores.py", "lance-nd-zarr-hostile-");

/** What `run` rejects with: a ZarrError of `code`. */
async function refusal(run: () => Promise<unknown>, code: ZarrErrorCode): Promise<Error> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isZarrError(err, code), `expected ${code}, got ${String(err)}`).toBe(true);
  return err as Error;
}

/** A v2 store xarray writes with one variable `v` of `dtype` on dim x, its `.zarray` fill_value then set to `fill` (JSON text). */
function storeWithFill(name: string, dtype: string, fill: string): string {
  const path = join(out.dir, `${name}.zarr`);
  python([
    "-c",
    `import sys, numpy as np, xarray as xr
xr.Dataset({"v": ("x", np.arange(4, dtype="${dtype}"))}).to_zarr(sys.argv[1], consolidated=False)`,
    path,
  ]);
  const zarray = join(path, "v", ".zarray");
  writeFileSync(zarray, readFileSync(zarray, "utf8").replace(/"fill_value": [^,\n]+/, `"fill_value": ${fill}`));
  return path;
}

describe.skipIf(skipOracle)("fill values the data type cannot hold", () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ["uint8", "300", "a uint8 fill of 300", /fill_value 300 is outside the range of \|u1/],
    ["int8", '"NaN"', 'an int8 fill of "NaN"', /fill_value "NaN" is not an integer/],
    ["int16", '"Infinity"', 'an int16 fill of "Infinity"', /fill_value "Infinity" is not an integer/],
    ["int32", "1.5", "an int32 fill of 1.5", /fill_value 1.5 is not an integer/],
    ["float32", '"fish"', 'a float32 fill of "fish"', /fill_value "fish" is not a number/],
  ];
  for (const [dtype, fill, what, message] of cases) {
    it(`${what}: InvalidStore naming the array, never read as another value`, async () => {
      const path = storeWithFill(`${dtype}-fill`, dtype, fill);
      const err = await refusal(() => openZarr(path), "InvalidStore");
      expect(err.message).toMatch(message);
      expect(err.message).toContain('"v"');
    });
  }

  it("fills the types hold still open: 255 for uint8, NaN and -Infinity for floats", async () => {
    for (const [dtype, fill] of [
      ["uint8", "255"],
      ["float64", '"NaN"'],
      ["float32", '"-Infinity"'],
    ] as const) {
      const zarr = await openZarr(storeWithFill(`${dtype}-good-fill`, dtype, fill));
      expect(zarr.variable("v").attrs.has("_FillValue")).toBe(true);
    }
  });
});

/** CRC-32C (Castagnoli), as the crc32c codec of the v3 spec. */
function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Sets inner chunk 0's index entry of the sharded array's shard 0 to (offset, length), with a new crc32c. */
function editShardIndex(store: string, offset: bigint, length: bigint): void {
  const shard = join(out.dir, store, "sharded", "c", "0", "0");
  const bytes = new Uint8Array(readFileSync(shard));
  // The index: two inner chunks of (offset, length) as little-endian uint64, then its crc32c.
  const index = bytes.subarray(bytes.length - 36, bytes.length - 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setBigUint64(bytes.length - 36, offset, true);
  view.setBigUint64(bytes.length - 28, length, true);
  view.setUint32(bytes.length - 4, crc32c(index), true);
  writeFileSync(shard, bytes);
}

describe.skipIf(skipOracle)("shard index entries past the end of the shard", () => {
  it("an offset of 2^63: ReadFailed naming the array and the chunk, not the bytes at offset 0", async () => {
    editShardIndex("group.zarr", 2n ** 63n, 32n);
    const zarr = await openZarr(join(out.dir, "group.zarr"), { id: "hostile" });
    const err = await refusal(() => zarr.read("sharded"), "ReadFailed");
    expect(err.message).toMatch(/chunk \[0, 0\] of shard "sharded\/c\/0\/0"/);
    expect(err.message).toContain("is not a byte range");
  });

  it("a length past the end: ReadFailed saying the range lies past the end of the shard", async () => {
    editShardIndex("consolidated.zarr", 0n, 1_000_000n);
    const zarr = await openZarr(join(out.dir, "consolidated.zarr"), { id: "hostile" });
    const err = await refusal(() => zarr.read("sharded"), "ReadFailed");
    expect(err.message).toMatch(/lies past its end \(\d+ bytes\)/);
  });
});

describe.skipIf(skipOracle)("a truncated blosc chunk", () => {
  it("is ReadFailed naming the array, the chunk and its header's size, where zarr-python reads garbage", async () => {
    const path = join(out.dir, "blosc.zarr");
    python([
      "-c",
      `import sys, numpy as np, zarr, numcodecs
z = zarr.open(sys.argv[1], mode="w", shape=(2048,), chunks=(1024,), dtype="f8",
              compressor=numcodecs.Blosc(cname="lz4", clevel=5, shuffle=0))
z[:] = np.random.default_rng(7).random(2048)
z.attrs["_ARRAY_DIMENSIONS"] = ["x"]`,
      path,
    ]);
    const intact = await openZarr(path, { id: "blosc" });
    expect((await intact.read("blosc")).values.length).toBe(2048);

    const chunk = join(path, "1");
    const bytes = readFileSync(chunk);
    const cbytes = bytes.readUInt32LE(12);
    expect(cbytes).toBe(bytes.length);
    writeFileSync(chunk, bytes.subarray(0, cbytes >> 1));
    const zarr = await openZarr(path, { id: "blosc" });
    const err = await refusal(() => zarr.read("blosc"), "ReadFailed");
    expect(err.message).toContain('chunk "1"');
    expect(err.message).toContain(`its blosc header says ${cbytes} bytes, the chunk holds ${cbytes >> 1}`);
  });
});
