/**
 * `lance-nd serve` over HTTP, against the built command serving a real
 * table: the address lines, what it refuses (no token, a wrong one, a
 * foreign Host: 403; a method other than GET and HEAD: 405; `..`, bad
 * percent-encoding, unknown pins: 400; absurd keys: 404 or 400), each with
 * a one-line text body; `Server-Timing` and CORS headers; branch pinning
 * and `?refresh`; and 100 concurrent chunk requests, after which the server
 * still answers with its peak memory under 512 MiB.
 */
import { execFile, spawn } from "node:child_process";
import { connect } from "node:net";
import { createInterface } from "node:readline";
import type { AttrInput, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, branch, open, write } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { oceanDemo } from "../../src/demo-data.js";
import { CLI, ensureBuilt, tempDir } from "../commands/harness.js";
import { send } from "../view/viewer.js";
import type { Reply } from "../view/viewer.js";
import { peakResidentMiB, startServe } from "./served.js";
import type { Served } from "./served.js";

let table: string;
let served: Served;

/** The demo dataset with a given `id` and seed: sst(time 4, lat 6, lon 8), one row. */
function dataset(id: string, seed: number): NdRecordBatch {
  const batch = oceanDemo({ times: 4, lat: 6, lon: 8, seed });
  return batch.withGlobalAttrs(new Map<string, AttrInput>([...batch.globalAttrs, ["id", id]]));
}

beforeAll(async () => {
  ensureBuilt();
  table = join(tempDir(), "ids.lance");
  const written = await write(table, [dataset("a", 1)], { stats: true });
  await append(written, [dataset("b/c", 2)]);
  served = await startServe(table);
});

afterAll(async () => {
  await served?.stop();
});

/** `GET <base><path>` (or another method) with exactly `headers`. */
const get = (path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Reply> =>
  send(served, `/${served.token}/${path}`, headers, method);

function expectRefusal(reply: Reply, status: number, message: RegExp): void {
  expect(reply.status).toBe(status);
  expect(reply.type).toMatch(/^text\/plain/);
  const body = reply.body.toString();
  expect(body.endsWith("\n")).toBe(true);
  expect(body.trimEnd()).toMatch(message);
  expect(body.trimEnd()).not.toContain("\n"); // one line, never a stack trace
}

describe("lance-nd serve", () => {
  it("prints the base URL on stdout, then one line per dataset on stderr; Ctrl+C (SIGINT) stops it with 0", async () => {
    const child = spawn(process.execPath, [CLI, "serve", table, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    // The dataset lines follow the URL line; the last one ends with the second dataset's URL.
    const listed = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("b%2Fc/\n")) resolve();
      }),
    );
    const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{48}\/$/);
    await listed;
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await exit).toBe(0);
    expect(stderr).toContain(`  a: ${url}a/\n`);
    expect(stderr).toContain(`  b/c: ${url}b%2Fc/\n`);
  });

  it("--json: the URL, port, token, version, Zarr version and each dataset's group URL", () => {
    expect(served.url).toBe(`http://127.0.0.1:${served.port}/${served.token}/`);
    expect(served.version).toBe(2);
    expect(served.datasets).toEqual([
      { id: "a", url: `${served.url}a/` },
      { id: "b/c", url: `${served.url}b%2Fc/` },
    ]);
  });

  it("serves the consolidated metadata and chunks of each dataset, with Server-Timing on each store answer", async () => {
    for (const id of ["a", "b%2Fc"]) {
      const metadata = await get(`${id}/.zmetadata`);
      expect(metadata.status).toBe(200);
      expect(metadata.type).toMatch(/^application\/json/);
      expect(metadata.json().metadata).toHaveProperty(["sst/.zarray"]);
      const chunk = await get(`${id}/sst/0.0.0`);
      expect(chunk.status).toBe(200);
      expect(chunk.type).toBe("application/octet-stream");
      expect(chunk.body.byteLength).toBe(4 * 6 * 8 * 4);
    }
    const timed = await rawHeaders(`a/sst/0.0.0`);
    expect(timed["server-timing"]).toMatch(/^wait;dur=\d+\.\d\d, read;dur=\d+\.\d\d$/);
  });

  it("HEAD answers the headers of GET without a body", async () => {
    const head = await get("a/sst/0.0.0", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
  });

  it("refuses a request without the token, with a wrong one, or with a foreign Host (403)", async () => {
    for (const path of ["/", "/a/.zmetadata", `/${served.token.slice(1)}x/a/.zmetadata`, `/x${served.token}/`])
      expectRefusal(await send(served, path), 403, /^refused: a missing or wrong token$/);
    for (const host of [
      `evil.example:${served.port}`,
      "127.0.0.1",
      `127.0.0.1:${served.port + 1}`,
      `localhost.evil.example:${served.port}`,
    ])
      expectRefusal(await get("a/.zmetadata", { host }), 403, /Host/);
    expect((await get("a/.zmetadata", { host: `localhost:${served.port}` })).status).toBe(200);
  });

  it("--host 0.0.0.0 warns that other machines can read the table; any Host passes, still only with the token", async () => {
    const wide = await startServe(table, ["--host", "0.0.0.0"]);
    try {
      expect(wide.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${wide.port}/`));
      const host = `workstation.example:${wide.port}`;
      expect((await send(wide, `/${wide.token}/a/.zmetadata`, { host })).status).toBe(200);
      expectRefusal(await send(wide, "/a/.zmetadata", { host }), 403, /token/);
      await wide.stderrMatching(/^lance-nd: warning: listening on 0\.0\.0\.0: other machines can read the table/m);
    } finally {
      await wide.stop();
    }
  });

  it("answers GET and HEAD only (405 with Allow)", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const reply = await get("a/.zmetadata", {}, method);
      expectRefusal(reply, 405, new RegExp(`^${method} is not allowed`));
    }
    expect((await rawHeaders("a/.zmetadata", "POST")).allow).toBe("GET, HEAD");
  });

  it("refuses a path that climbs out or is malformed (400), before any lookup", async () => {
    for (const path of [
      "../a/.zmetadata",
      "a/../../.zmetadata",
      "%2e%2e/%2e%2e/etc/passwd",
      "a/%2E%2E/b%2Fc/.zmetadata",
      "a/./.zmetadata",
      "a//sst/0.0.0",
      "a/%zz",
    ])
      expectRefusal(await get(path), 400, /^bad path: /);
    expectRefusal(await get("@x/a/.zmetadata"), 400, /unknown pin "@x"/);
    expectRefusal(await get("@v0/a/.zmetadata"), 400, /unknown pin "@v0"/);
    expectRefusal(await get("@tag/"), 400, /needs a name/);
  });

  it("an unknown version, tag, branch, dataset or key is a 404 naming it; an absurd chunk key never a 500", async () => {
    expectRefusal(await get("@v99/a/.zmetadata"), 404, /99/);
    expectRefusal(await get("@tag/nope/a/.zmetadata"), 404, /nope/);
    expectRefusal(await get("@branch/nope/a/.zmetadata"), 404, /nope/);
    expectRefusal(await get("zz/.zmetadata"), 404, /^no key \/zz\/\.zmetadata in version 2$/);
    expectRefusal(await get("a/nope/.zarray"), 404, /no key/);
    for (const key of [
      "a/sst/4.0.0",
      "a/sst/99999999999999999999.0.0",
      "a/sst/-1.0.0",
      "a/sst/1e3.0.0",
      "a/sst/0.0",
      "a/sst/0.0.0.0.0.0.0",
      "a/sst/0.0.x",
      `a/sst/${"0.".repeat(2000)}0`,
    ]) {
      const reply = await get(key);
      expect([400, 404], key.slice(0, 40)).toContain(reply.status);
      expectRefusal(reply, reply.status, /./);
    }
  });

  it("the group listing at the base (and at each pin) names the version and the datasets", async () => {
    expect((await get("")).json()).toEqual({
      version: 2,
      zarrVersion: 2,
      datasets: ["a", "b/c"],
      paths: ["a/", "b%2Fc/"],
    });
    expect((await get("@v1/")).json()).toEqual({ version: 1, zarrVersion: 2, datasets: ["a"], paths: ["a/"] });
  });

  it("a branch stays pinned to the version first asked for until ?refresh; --branch serves one at the base", async () => {
    const dev = await branch(await open(table), "dev");
    expect((await get("@branch/dev/")).json()).toMatchObject({ datasets: ["a", "b/c"], paths: ["a/", "b%2Fc/"] });
    const pinned = (await get("@branch/dev/")).json().version;
    await append(dev, [dataset("d", 3)]);
    expect((await get("@branch/dev/a/.zmetadata")).status).toBe(200);
    expect((await get("@branch/dev/")).json()).toEqual({
      version: pinned,
      zarrVersion: 2,
      datasets: ["a", "b/c"],
      paths: ["a/", "b%2Fc/"],
    });
    expect((await get("@branch/dev/d/.zmetadata")).status).toBe(404);
    const refreshed = (await get("@branch/dev/?refresh")).json();
    expect(refreshed.version).toBeGreaterThan(pinned as number);
    expect(refreshed.datasets).toEqual(["a", "b/c", "d"]);
    expect((await get("@branch/dev/d/.zmetadata")).status).toBe(200);
    expect((await get("")).json().datasets).toEqual(["a", "b/c"]); // main is untouched
    const onDev = await startServe(table, ["--branch", "dev"]);
    try {
      expect(onDev.datasets.map((d) => d.id)).toEqual(["a", "b/c", "d"]);
      expect((await send(onDev, `/${onDev.token}/d/.zmetadata`)).status).toBe(200);
    } finally {
      await onDev.stop();
    }
  });

  it("a branch pin names a version of that branch's history: deleted, or deleted and made again under its name, it answers 410 until ?refresh", async () => {
    const first = await branch(await open(table), "remade");
    await append(first, [dataset("old", 4)]);
    const pinned = (await get("@branch/remade/")).json();
    expect(pinned.datasets).toContain("old");
    expect((await get("@branch/remade/old/.zmetadata")).status).toBe(200);

    await (await open(table)).deleteBranch("remade");
    expectRefusal(
      await get("@branch/remade/old/.zmetadata"),
      410,
      /branch remade was deleted since its version \d+ was pinned/,
    );

    // Made again with as many commits: its latest has the pinned version's number, with other content.
    const again = await branch(await open(table), "remade");
    await append(again, [dataset("new", 5)]);
    expect(await (await open(table, { branch: "remade" })).version()).toBe(pinned.version);
    expectRefusal(
      await get("@branch/remade/"),
      410,
      /made again: its version \d+ is another commit now; ask with \?refresh/,
    );
    expectRefusal(await get("@branch/remade/old/.zmetadata"), 410, /made again/);

    const refreshed = (await get("@branch/remade/?refresh")).json();
    expect(refreshed.datasets).toContain("new");
    expect(refreshed.datasets).not.toContain("old");
    expect((await get("@branch/remade/new/.zmetadata")).status).toBe(200);
  });

  it("--version serves that version at the base; a missing table or version, or a bad option, exits at once", async () => {
    const first = await startServe(table, ["--version", "1"]);
    try {
      expect(first.version).toBe(1);
      expect((await send(first, `/${first.token}/`)).json()).toEqual({
        version: 1,
        zarrVersion: 2,
        datasets: ["a"],
        paths: ["a/"],
      });
    } finally {
      await first.stop();
    }
    for (const [args, code, message] of [
      [[table, "--version", "9"], 1, /^lance-nd: cannot serve .*version 9 does not exist/],
      [[`${table}-none`], 1, /^lance-nd: cannot serve .*not found/],
      [[table, "--cors", "http://page.example/"], 2, /expected an origin such as/],
      [[table, "--zarr-version", "4"], 2, /--zarr-version/],
      [[table, "--port", "70000"], 2, /expected a port number/],
    ] as const) {
      const run = await serveOnce(args);
      expect([run.code, run.stdout], args.join(" ")).toEqual([code, ""]);
      expect(run.stderr.trimEnd(), args.join(" ")).toMatch(message);
      expect(run.stderr.trimEnd()).not.toContain("\n");
    }
  });

  it("CORS headers only for the --cors origin", async () => {
    expect(
      (await rawHeaders("a/.zmetadata", "GET", { origin: "http://page.example" }))["access-control-allow-origin"],
    ).toBeUndefined();
    const cors = await startServe(table, ["--cors", "http://page.example"]);
    try {
      const allowed = await rawHeaders("a/.zmetadata", "GET", { origin: "http://page.example" }, cors);
      expect(allowed["access-control-allow-origin"]).toBe("http://page.example");
      expect(allowed["access-control-expose-headers"]).toContain("Server-Timing");
      const other = await rawHeaders("a/.zmetadata", "GET", { origin: "http://evil.example" }, cors);
      expect(other["access-control-allow-origin"]).toBeUndefined();
    } finally {
      await cors.stop();
    }
  });

  it("100 concurrent chunk requests, 20 of them dropped by the client once sent: the others all answered in turn; the server answers after, under 512 MiB", async () => {
    const dropped = Array.from({ length: 20 }, () => sendAndDrop(`/${served.token}/a/sst/0.0.0`));
    const replies = await Promise.all(
      Array.from({ length: 80 }, (_, i) => get(`${i % 2 === 0 ? "a" : "b%2Fc"}/sst/0.0.0`)),
    );
    await Promise.all(dropped);
    expect(replies.map((r) => r.status)).toEqual(Array(80).fill(200));
    // Dropped requests give their turn back: more requests than turns at once are all answered.
    const after = await Promise.all(Array.from({ length: 12 }, () => get("a/sst/0.0.0")));
    expect(after.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(served.exitCode()).toBeNull();
    expect(peakResidentMiB(served.pid)).toBeLessThan(512);
  });
});

/** Writes `GET path` on a new connection and closes it once written, without reading the answer. */
function sendAndDrop(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(served.port, "127.0.0.1", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${served.host}\r\n\r\n`, () => {
        socket.destroy();
        resolve();
      }),
    );
    socket.on("error", reject);
  });
}

/** The response headers of `method <base><path>` (on `server`, default the shared one). */
async function rawHeaders(
  path: string,
  method = "GET",
  headers: Record<string, string> = {},
  server: Served = served,
): Promise<Record<string, string | undefined>> {
  const response = await fetch(`${server.url}${path}`, { method, headers });
  await response.arrayBuffer();
  return Object.fromEntries(response.headers.entries());
}

/** `lance-nd serve ...args` run to its end without blocking this process (its keep-alive connections stay served). */
function serveOnce(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, "serve", ...args], (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr }),
    );
  });
}
