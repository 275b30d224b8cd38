// The built `lance-nd serve` under hostile clients on 127.0.0.1 (CLI
// README, "serve", Bounds): 300 connections that never finish their
// headers (slowloris) and 6 clients that never read their 8 MiB answers do
// not keep a good client from its answers while they hold their
// connections; a request with two Host headers is refused; a 404 never
// shows where the table is; every dataset id (`..`, `.`, `@v1`, `@tag`,
// `~x`) is reachable at the URL the server gives. Bounded in count; no
// wall-clock assertion: each step waits for an event.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type Socket, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { AttrInput, NdRecordBatch } from "@lance-nd/nd-arrow";
import { write } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MiB, bigRow, bigValue } from "./helpers/big-rows.js";
import { CLI, requireBuiltCli } from "./helpers/cli.js";

const ROWS = 6;
const ROW_BYTES = 8 * MiB;
const VALUES = ROW_BYTES / 4;
const SLOW_HEADERS = 300;
const NON_READERS = 6;
const ODD_IDS = ["..", ".", "@v1", "@tag", "~x", "plain"];

interface Server {
  url: string;
  port: number;
  token: string;
  datasets: { id: string; url: string }[];
  stop(): void;
}

let dir: string;
const servers: ReturnType<typeof spawn>[] = [];
const sockets: Socket[] = [];

/** Starts the built `lance-nd serve <table> --json` and waits for its address line. */
async function serve(table: string): Promise<Server> {
  const child = spawn(process.execPath, [CLI, "serve", table, "--port", "0", "--json"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  servers.push(child);
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { ...(JSON.parse(line) as Omit<Server, "stop">), stop: () => child.kill("SIGTERM") };
}

/** A raw connection to the server, once connected. */
function rawConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", () => {}); // the server may close it: that is the point
    socket.once("error", reject);
    sockets.push(socket);
  });
}

/** Whether `socket` is still open. */
const open = (socket: Socket) => !socket.destroyed && socket.readyState === "open";

beforeAll(async () => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "lance-nd-serve-hostile-"));
  async function* rows() {
    for (let i = 0; i < ROWS; i++)
      yield bigRow(i, ROW_BYTES).withGlobalAttrs(
        new Map<string, AttrInput>([
          ["id", "big"],
          [CHUNK_OFFSET, attr.uint32([i * VALUES])],
        ]),
      );
  }
  await write(join(dir, "big.lance"), rows());
  async function* odd(): AsyncGenerator<NdRecordBatch> {
    for (const [i, id] of ODD_IDS.entries())
      yield bigRow(i, 4096).withGlobalAttrs(new Map<string, AttrInput>([["id", id]]));
  }
  await write(join(dir, "odd.lance"), odd());
});

afterAll(() => {
  for (const socket of sockets) socket.destroy();
  for (const child of servers) child.kill("SIGTERM");
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** `GET url` read whole: status, body as bytes. */
async function get(url: string): Promise<{ status: number; body: Uint8Array }> {
  const response = await fetch(url);
  return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
}

/** Checks a chunk of `big` read whole: its length and spot values. */
function expectChunk(body: Uint8Array, chunk: number): void {
  const values = new Float32Array(body.buffer, body.byteOffset, body.byteLength / 4);
  expect(values.length).toBe(VALUES);
  for (const j of [0, VALUES - 1, 12_345]) expect(values[j]).toBe(bigValue(chunk, j));
}

describe("lance-nd serve under hostile clients", () => {
  it(`${SLOW_HEADERS} connections that never finish their headers: a good client still gets metadata and a chunk`, async () => {
    const server = await serve(join(dir, "big.lance"));
    try {
      const slow = await Promise.all(Array.from({ length: SLOW_HEADERS }, () => rawConnection(server.port)));
      await Promise.all(
        slow.map(
          (socket) =>
            new Promise<void>((resolve) =>
              socket.write(`GET /${server.token}/big/.zmetadata HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`, () =>
                resolve(),
              ),
            ),
        ),
      );
      const metadata = await get(`${server.url}big/.zmetadata`);
      expect(metadata.status).toBe(200);
      const chunk = await get(`${server.url}big/v/2`);
      expect(chunk.status).toBe(200);
      expectChunk(chunk.body, 2);
      // The slow ones still hold connections (the newest of them), as many as one address may.
      expect(slow.filter(open).length).toBeGreaterThan(32);
    } finally {
      server.stop();
    }
  });

  it(`${NON_READERS} clients that never read their 8 MiB answers: metadata and chunks still answer while they hold them`, async () => {
    const server = await serve(join(dir, "big.lance"));
    try {
      const stalled = await Promise.all(
        Array.from({ length: NON_READERS }, async (_, n) => {
          const socket = await rawConnection(server.port);
          // The answer has started once its first bytes arrive; then the client stops reading.
          const started = new Promise<void>((resolve) =>
            socket.once("data", () => {
              socket.pause();
              resolve();
            }),
          );
          socket.write(`GET /${server.token}/big/v/${n % ROWS} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
          await started;
          return socket;
        }),
      );
      expect((await get(`${server.url}big/.zmetadata`)).status).toBe(200);
      expect((await get(server.url)).status).toBe(200);
      for (const n of [1, 4]) {
        const chunk = await get(`${server.url}big/v/${n}`);
        expect(chunk.status).toBe(200);
        expectChunk(chunk.body, n);
      }
      expect(stalled.every(open)).toBe(true);
    } finally {
      server.stop();
    }
  });

  it("two Host headers (the good one first) are refused; a 404 names the table by its name, not its path", async () => {
    const server = await serve(join(dir, "big.lance"));
    try {
      const socket = await rawConnection(server.port);
      const answer = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (chunk: Buffer) => {
          text += chunk.toString("latin1");
          if (text.includes("\r\n\r\n") && text.endsWith("\n")) resolve(text);
        });
      });
      socket.write(
        `GET /${server.token}/big/.zmetadata HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
      );
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 403 /);
      expect(text).toContain("more than one Host header");

      for (const path of ["@v99/", "@tag/nope/big/.zmetadata", "@branch/nope/"]) {
        const reply = await get(`${server.url}${path}`);
        expect(reply.status, path).toBe(404);
        const body = new TextDecoder().decode(reply.body);
        expect(body, path).not.toContain(dir);
      }
    } finally {
      server.stop();
    }
  });

  it("every dataset id is reachable at the URL the server gives, never read as a pin or a path step", async () => {
    const server = await serve(join(dir, "odd.lance"));
    try {
      expect(server.datasets.map((d) => d.id).sort()).toEqual([...ODD_IDS].sort());
      for (const { id, url } of server.datasets) {
        const metadata = await get(`${url}.zmetadata`);
        expect(metadata.status, id).toBe(200);
        const chunk = await get(`${url}v/0`);
        expect(chunk.status, id).toBe(200);
      }
      const listing = (await (await fetch(server.url)).json()) as { datasets: string[]; paths: string[] };
      expect(listing.paths.map((p) => `${server.url}${p}`).sort()).toEqual(server.datasets.map((d) => d.url).sort());
    } finally {
      server.stop();
    }
  });
});
