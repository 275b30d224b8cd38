import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CODECS } from "../bench/contestant.js";
import { files } from "../bench/files.js";
import { CHUNK_VALUES, chunkValues, oceanData, sumOf } from "../bench/ocean-data.js";
import { zarrita } from "../bench/zarrita.js";

// The bench (bench/run.ts) is not part of the test run; these check the two
// things its figures rest on, cheaply: the data is the same in every run, and
// the cheap contestants read back exactly what they wrote.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-smoke-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("bench data", () => {
  it("the same size gives the same bytes in every run", () => {
    const a = oceanData(2);
    const b = oceanData(2);
    expect(a.chunks).toBe(2);
    expect(Buffer.from(a.sst.buffer).equals(Buffer.from(b.sst.buffer))).toBe(true);
    expect(a.hotThreshold).toBe(b.hotThreshold);
  });

  it("is a smooth field with noise: neither constant nor random bytes", () => {
    const { sst } = oceanData(1);
    const min = sst.reduce((m, v) => Math.min(m, v), Infinity);
    const max = sst.reduce((m, v) => Math.max(m, v), -Infinity);
    expect(min).toBeGreaterThan(265);
    expect(max).toBeLessThan(306);
    // Neighbours along lon differ by little (smooth), but not by nothing (noise).
    const steps = Array.from({ length: 359 }, (_, k) => Math.abs(sst[k + 1]! - sst[k]!));
    expect(Math.max(...steps)).toBeLessThan(0.5);
    expect(new Set(steps).size).toBeGreaterThan(100);
  });

  it("stats: hotChunks chunks have a maximum above hotThreshold, and chunkSum sums each chunk", () => {
    const data = oceanData(16);
    expect(data.hotChunks).toBe(2);
    expect(data.chunkMax.filter((m) => m > data.hotThreshold).length).toBe(2);
    expect(data.chunkSum[3]).toBe(sumOf(chunkValues(data, 3)));
    expect(chunkValues(data, 3).length).toBe(CHUNK_VALUES);
  });
});

describe.each([zarrita, files])("bench contestant $name", (contestant) => {
  it.each(CODECS)("%s: every read returns what was written", async (codec) => {
    const data = oceanData(8);
    const dir = fs.mkdtempSync(path.join(tmp, "c-"));
    const store = await (await contestant.prepare(data, codec, true))(dir);
    expect(await store.scan()).toEqual({ sum: data.chunkSum.reduce((a, b) => a + b, 0), chunks: 8 });
    expect(await store.readChunk(5)).toEqual({ sum: data.chunkSum[5], chunks: 1 });
    expect((await store.readTime()).sum).toBe(sumOf(data.time));
    const hot = [...data.chunkMax.keys()].filter((i) => data.chunkMax[i]! > data.hotThreshold);
    expect(await store.readHot(data.hotThreshold)).toEqual({
      sum: hot.reduce((s, i) => s + data.chunkSum[i]!, 0),
      chunks: 1,
    });
    expect(store.bytes()).toBeGreaterThan(0);
  });
});
