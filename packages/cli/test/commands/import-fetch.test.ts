/**
 * A file at a URL whose server ignores `Range`, read as `lance-nd import`
 * reads it (@lance-nd/netcdf's `openUrlSource` over @lance-nd/zarr's
 * `storeFetch({ passWhole: true })`, CLI README "Stores elsewhere"): the
 * whole file reaches its temporary file unchanged, fetched once and each
 * byte counted once; a connection dropped halfway through it is an
 * `InvalidFile` error naming the URL and saying so, no temporary file
 * left, and the next read asks again; the import of such a file is one
 * line naming the URL, no table written.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isNetcdfError, openUrlSource } from "@lance-nd/netcdf";
import { type FileServer, startFileServer } from "@lance-nd/test-helpers";
import { storeFetch } from "@lance-nd/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliAsync, ensureBuilt, tempDir } from "./harness.js";

// Bytes that no reader checks: what is compared is every byte, as the server has it.
const SIZE = 24 * 2 ** 20 + 12_345;
let dir: string;
let bytes: Uint8Array;
let plain: FileServer;
beforeAll(async () => {
  dir = tempDir();
  bytes = randomBytes(SIZE);
  writeFileSync(join(dir, "whole.nc"), bytes);
  plain = await startFileServer(dir, { ignoreRange: true });
});
afterAll(() => plain?.stop());

/** The temporary files of netCDF files at URLs in the system's temporary folder. */
const kept = () => readdirSync(tmpdir()).filter((f) => /^lance-nd-[0-9a-f-]{36}\.nc$/.test(f));

/** `openUrlSource` of the file with the fetch `lance-nd import` gives it, and the bytes that fetch counted. */
async function openAsImport(url: string) {
  const counted = { bytes: 0 };
  const fetch = storeFetch({ passWhole: true, retryDelayMs: 1, onBytes: (n) => (counted.bytes += n) });
  return { source: await openUrlSource(url, { fetch }), counted };
}

describe("a file from a server that ignores Range, read through storeFetch({ passWhole: true })", () => {
  it("every byte of the temporary file is the server's file, fetched once and counted once; close removes it", async () => {
    const before = kept();
    plain.reset();
    const { source, counted } = await openAsImport(`${plain.url}/whole.nc`);
    const read = new Uint8Array(SIZE);
    const piece = 5 * 2 ** 20 + 3;
    for (let at = SIZE - piece; at > -piece; at -= piece) {
      const start = Math.max(0, at);
      read.set(await source.read(start, at + piece - start), start);
    }
    expect(Buffer.compare(read, bytes)).toBe(0);
    expect(plain.requests.filter((r) => r.method === "GET").map((r) => [r.status, r.bytes])).toEqual([[200, SIZE]]);
    expect(counted.bytes).toBe(SIZE);
    const path = source.path;
    expect(path !== undefined && existsSync(path)).toBe(true);
    await source.close();
    expect(existsSync(path!)).toBe(false);
    expect(kept()).toEqual(before);
  });

  it("a connection dropped halfway: InvalidFile naming the URL and the drop, no temporary file left; the next read asks again", async () => {
    const before = kept();
    const url = `${plain.url}/whole.nc`;
    plain.reset();
    plain.inject([{ path: /whole\.nc$/, drop: true }]);
    const { source } = await openAsImport(url);
    const err = await source.read(0, 8).catch((e: unknown) => e);
    expect(isNetcdfError(err, "InvalidFile")).toBe(true);
    expect((err as Error).message).toContain(`${url}: cannot keep the whole file the server sent`);
    expect((err as Error).message).toMatch(new RegExp(`the connection dropped after \\d+ of ${SIZE} bytes`));
    expect(source.path).toBeUndefined();
    expect(kept()).toEqual(before);
    expect(plain.requests.filter((r) => r.method === "GET")).toHaveLength(1);

    plain.inject([]);
    expect(Buffer.compare(await source.read(SIZE - 100, 100), bytes.subarray(SIZE - 100))).toBe(0);
    expect(plain.requests.filter((r) => r.method === "GET").map((r) => r.status)).toEqual([200, 200]);
    await source.close();
    expect(kept()).toEqual(before);
  });

  it("lance-nd import of it: one line naming the URL and the drop, no table, no temporary file", async () => {
    ensureBuilt();
    const before = kept();
    const url = `${plain.url}/whole.nc`;
    const table = join(dir, "dropped.lance");
    plain.inject([{ path: /whole\.nc$/, drop: true }]);
    try {
      const run = await cliAsync(["import", url, table]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(url);
      expect(run.stderr).toContain("the connection dropped after");
    } finally {
      plain.inject([]);
    }
    expect(existsSync(table)).toBe(false);
    expect(kept()).toEqual(before);
  });
});
