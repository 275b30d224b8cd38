/**
 * A small HTTP server of a local folder, as a web server or an object
 * store's HTTP endpoint serves files: `GET` and `HEAD`, `Range: bytes=a-b`
 * answered with 206 (or ignored, with `ignoreRange`, as Python's
 * `http.server` does), every request recorded with the bytes of its body,
 * and faults to inject: a status, a connection dropped in the middle of
 * the body, a body with flipped bytes.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import { join, normalize, resolve } from "node:path";
import { listenLocally } from "./local-server.js";

/** One request the server answered: method, path (below the root), `Range` header, status and body bytes sent. */
export interface ServedRequest {
  readonly method: string;
  readonly path: string;
  readonly range: string | undefined;
  readonly status: number;
  readonly bytes: number;
}

/**
 * A fault the server answers in place of the file: an HTTP `status`,
 * `drop` (headers and half the body sent, then the connection destroyed)
 * or `corrupt` (the body with every byte inverted). `times` bounds how
 * many matching requests it hits (default: all).
 */
export type FileFault = ({ status: 403 | 404 | 429 | 500 | 503 } | { drop: true } | { corrupt: true }) & {
  /** Which requests: the path below the root (e.g. `/t.zarr/t/3.0.0`) must match. */
  path: RegExp;
  times?: number;
};

/** A running {@link startFileServer}. */
export interface FileServer {
  /** `http://127.0.0.1:<port>`: the root folder's URL (no trailing slash). */
  readonly url: string;
  /** Every request answered since the start or the last `reset`. */
  readonly requests: readonly ServedRequest[];
  /** Replaces the faults ([] for none). */
  inject(faults: FileFault[]): void;
  /** Forgets the requests recorded so far. */
  reset(): void;
  /** Stops the server (open connections too). */
  stop(): Promise<void>;
}

/** Serves folder `root` on 127.0.0.1 (a free port); with `ignoreRange`, `Range` is ignored (200 and the whole file). */
export async function startFileServer(folder: string, options: { ignoreRange?: boolean } = {}): Promise<FileServer> {
  const root = resolve(folder);
  let requests: ServedRequest[] = [];
  let faults: Array<FileFault & { left: number }> = [];

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const range = req.headers.range;
    const record = (status: number, bytes: number) =>
      requests.push({ method: req.method ?? "GET", path, range, status, bytes });
    const fault = faults.find((f) => f.left > 0 && f.path.test(path));
    if (fault !== undefined) fault.left--;
    if (fault !== undefined && "status" in fault) {
      record(fault.status, 0);
      res.writeHead(fault.status, { "content-length": 0 }).end();
      return;
    }
    const file = join(root, normalize(path));
    const info = await stat(file).catch(() => undefined);
    if (info === undefined || !info.isFile() || !file.startsWith(root)) {
      record(404, 0);
      res.writeHead(404, { "content-length": 0 }).end();
      return;
    }
    const match = options.ignoreRange ? null : /^bytes=(\d+)-(\d*)$/.exec(range ?? "");
    const start = match === null ? 0 : Number(match[1]);
    const end = match === null || match[2] === "" ? info.size - 1 : Math.min(Number(match[2]), info.size - 1);
    const length = Math.max(0, end - start + 1);
    const status = match === null ? 200 : 206;
    const headers: Record<string, string | number> = { "content-length": length, "accept-ranges": "bytes" };
    if (match !== null) headers["content-range"] = `bytes ${start}-${end}/${info.size}`;
    if (req.method === "HEAD") {
      record(status, 0);
      res.writeHead(status, headers).end();
      return;
    }
    if (fault !== undefined) {
      const body = (await readFile(file)).subarray(start, end + 1);
      res.writeHead(status, headers);
      if ("corrupt" in fault) {
        record(status, length);
        res.end(body.map((b) => 255 - b));
      } else {
        record(status, Math.floor(length / 2));
        res.write(body.subarray(0, Math.floor(length / 2)), () => res.socket?.destroy());
      }
      return;
    }
    record(status, length);
    res.writeHead(status, headers);
    createReadStream(file, { start, end }).pipe(res);
  };

  const server = await listenLocally(
    createServer((req, res) => {
      answer(req, res).catch(() => res.destroy());
    }),
  );
  return {
    url: server.origin,
    get requests() {
      return requests;
    },
    inject(next) {
      faults = next.map((f) => ({ ...f, left: f.times ?? Number.POSITIVE_INFINITY }));
    },
    reset() {
      requests = [];
    },
    stop: server.stop,
  };
}
