/**
 * `storeFetch({ passWhole: true })` against servers that ignore `Range`
 * (README "Stores elsewhere"): the whole object comes on as it arrives,
 * its first bytes readable (and counted by `onBytes`) before the server
 * has sent the rest; every byte counted once; a connection dropped
 * halfway errors the stream with `ReadFailed` naming the URL, the request
 * sent once; without `passWhole` the same answer is cut to the range asked.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { join } from "node:path";
import { type FileServer, listenLocally, startFileServer } from "@lance-nd/test-helpers";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isZarrError, storeFetch } from "../src/index.js";
import { tempDir } from "./python-oracle.js";

const SIZE = 3 * 2 ** 20;
const GATED_HALF = 64 * 1024;
let out: ReturnType<typeof tempDir>;
let plain: FileServer;
let gated: GatedServer;
let bytes: Uint8Array;
beforeAll(async () => {
  out = tempDir("lance-nd-zarr-whole-");
  bytes = randomBytes(SIZE);
  writeFileSync(join(out.dir, "whole.bin"), bytes);
  plain = await startFileServer(out.dir, { ignoreRange: true });
  gated = await startGatedServer();
});
afterAll(async () => {
  await plain?.stop();
  await gated?.stop();
  out?.remove();
});

/** A server that ignores `Range`: the first half of a whole object, then the rest once `sendRest` is called. */
interface GatedServer {
  readonly url: string;
  sendRest(): void;
  stop(): Promise<void>;
}

async function startGatedServer(): Promise<GatedServer> {
  const half = new Uint8Array(GATED_HALF).fill(7);
  let sendRest: () => void = () => {};
  const rest = new Promise<void>((resolve) => {
    sendRest = resolve;
  });
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-length": 2 * half.length });
    res.write(half);
    rest.then(() => res.end(half));
  });
  const local = await listenLocally(server);
  return {
    url: `${local.origin}/whole.bin`,
    sendRest,
    stop: () => {
      sendRest();
      return local.stop();
    },
  };
}

/** Every chunk of `response`'s body, joined; the error the stream ended with, if any. */
async function drain(response: Response): Promise<{ body: Uint8Array; error?: unknown }> {
  const chunks: Uint8Array[] = [];
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { body: Buffer.concat(chunks) };
      chunks.push(value);
    }
  } catch (error) {
    return { body: Buffer.concat(chunks), error };
  }
}

describe("storeFetch with passWhole: a whole object from a server that ignores Range", () => {
  it("its first bytes are read, and counted, before the server sends the rest", async () => {
    let counted = 0;
    const fetch = storeFetch({ passWhole: true, onBytes: (n) => (counted += n) });
    const response = await fetch(new Request(gated.url, { headers: { Range: "bytes=0-7" } }));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let first = 0;
    while (first < GATED_HALF) first += (await reader.read()).value!.byteLength;
    expect([first, counted]).toEqual([GATED_HALF, GATED_HALF]);
    gated.sendRest();
    let total = first;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) total += chunk.value.byteLength;
    expect([total, counted]).toEqual([2 * GATED_HALF, 2 * GATED_HALF]);
  });

  it("every byte as the file has it, each counted once, in one request", async () => {
    plain.reset();
    let counted = 0;
    const fetch = storeFetch({ passWhole: true, onBytes: (n) => (counted += n) });
    const response = await fetch(new Request(`${plain.url}/whole.bin`, { headers: { Range: "bytes=100-199" } }));
    expect([response.status, response.headers.get("content-length")]).toEqual([200, String(SIZE)]);
    const { body, error } = await drain(response);
    expect(error).toBeUndefined();
    expect(Buffer.compare(body, bytes)).toBe(0);
    expect(counted).toBe(SIZE);
    expect(plain.requests.map((r) => [r.method, r.status, r.bytes])).toEqual([["GET", 200, SIZE]]);
  });

  it("a connection dropped halfway: the stream fails with ReadFailed naming the URL, the request not sent again", async () => {
    plain.reset();
    plain.inject([{ path: /whole\.bin$/, drop: true }]);
    try {
      let counted = 0;
      const fetch = storeFetch({ passWhole: true, retryDelayMs: 1, onBytes: (n) => (counted += n) });
      const url = `${plain.url}/whole.bin`;
      const response = await fetch(new Request(url, { headers: { Range: "bytes=0-7" } }));
      const { body, error } = await drain(response);
      expect(isZarrError(error, "ReadFailed")).toBe(true);
      expect((error as Error).message).toContain(
        `GET ${url} (bytes=0-7): the server ignores Range and sent the whole object, which was cut`,
      );
      expect((error as Error).message).toContain(`the connection dropped after ${body.length} of ${SIZE} bytes`);
      expect(body.length).toBeLessThan(SIZE);
      expect(Buffer.compare(body, bytes.subarray(0, body.length))).toBe(0);
      expect(counted).toBe(body.length);
      expect(plain.requests.filter((r) => r.method === "GET")).toHaveLength(1);
    } finally {
      plain.inject([]);
    }
  });

  it("without passWhole: the range asked for, cut from the whole object (status 206)", async () => {
    const fetch = storeFetch();
    const response = await fetch(new Request(`${plain.url}/whole.bin`, { headers: { Range: "bytes=100-199" } }));
    expect(response.status).toBe(206);
    expect(Buffer.compare(new Uint8Array(await response.arrayBuffer()), bytes.subarray(100, 200))).toBe(0);
  });
});
