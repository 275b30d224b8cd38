/**
 * A netCDF file at an `http://` or `https://` URL as a {@link ByteSource}
 * (README "Files at URLs"): its size from a `HEAD`, then byte ranges
 * (`Range: bytes=a-b`) as the reader asks for them, so a classic file
 * costs its header and the bytes a read touches. A server that ignores
 * `Range` sends the whole file: it is kept in a temporary file, written
 * as it arrives, which the reads after it use, so the file is fetched once
 * (and its path is the source's `path`); one cut short is not kept, and
 * the next read asks again. netCDF-4 is copied to a temporary file first
 * (`openNetcdf`: h5wasm reads files by path), unless the source already
 * keeps the whole file.
 */
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import { openFileSource, temporaryCopyPath } from "./file-source.js";
import { NetcdfError } from "./netcdf-error.js";
import type { ByteSource } from "./source.js";

/** Options of {@link openUrlSource}. */
export interface UrlSourceOptions {
  /**
   * The fetch that sends the requests: one that retries, bounds the requests
   * in flight or signs them. Default: the global `fetch`, each request sent once.
   */
  fetch?: (request: Request) => Promise<Response>;
}

/** True when `source` is an `http://` or `https://` URL. */
export function isHttpUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * The file at `url`, read by byte ranges. `FileNotFound` naming the URL
 * for a 404; `InvalidFile` naming the URL and the status for any other
 * refusal, or a server that gives no size. A server that ignores `Range`
 * (200 and the whole file) is read correctly: the first whole answer goes
 * to a temporary file as it arrives, which every later read uses and
 * `close` removes. When that answer is cut (the connection dropped), the
 * reads waiting for it fail with `InvalidFile` naming the URL and what
 * happened, the temporary file is removed, and the next read asks again.
 */
export async function openUrlSource(url: string, options: UrlSourceOptions = {}): Promise<ByteSource> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const head = await ask(send, new Request(url, { method: "HEAD" }), url);
  const size = Number(head.headers.get("content-length"));
  if (head.headers.get("content-length") === null || !Number.isSafeInteger(size))
    throw new NetcdfError("InvalidFile", `${url}: the server gives no size (Content-Length) for the file`, {
      path: url,
    });
  /** The whole file, once a server that ignores `Range` has sent it. */
  let whole: Promise<ByteSource> | undefined;
  /** Its temporary file, once written. */
  let kept: ByteSource | undefined;
  return {
    label: url,
    get path() {
      return kept?.path;
    },
    size,
    read: async (offset, length) => {
      const end = Math.min(offset + length, size);
      if (end <= offset) return new Uint8Array(0);
      if (whole !== undefined) return (await whole).read(offset, end - offset);
      const response = await ask(send, new Request(url, { headers: { Range: `bytes=${offset}-${end - 1}` } }), url);
      if (response.status === 206) return new Uint8Array(await response.arrayBuffer());
      // 200: the whole file, from a server that ignores Range (a read in flight beside the first one drops its copy).
      if (whole === undefined) {
        const keeping = keepWhole(url, response).then((file) => {
          kept = file;
          return file;
        });
        whole = keeping;
        // A whole file that did not reach its temporary file (a dropped connection) is not kept: the next read asks again.
        keeping.catch(() => {
          if (whole === keeping) whole = undefined;
        });
      } else await response.body?.cancel();
      return (await whole).read(offset, end - offset);
    },
    close: async () => {
      await whole?.then(
        (file) => file.close(),
        () => {},
      );
    },
  };
}

/**
 * `response`'s body (the whole file at `url`) in a temporary file, written
 * as it arrives and read by ranges; `close` removes it. A body cut short
 * is `InvalidFile` naming the URL, its temporary file removed.
 */
async function keepWhole(url: string, response: Response): Promise<ByteSource> {
  const path = temporaryCopyPath();
  try {
    if (response.body === null) throw new Error("no body");
    await pipeline(
      Readable.fromWeb(response.body as ReadableStream<Uint8Array>),
      createWriteStream(path, { flags: "wx" }),
    );
    const file = await openFileSource(path, url);
    return {
      ...file,
      close: async () => {
        await file.close();
        await rm(path, { force: true });
      },
    };
  } catch (cause) {
    await rm(path, { force: true });
    throw new NetcdfError(
      "InvalidFile",
      `${url}: cannot keep the whole file the server sent (${(cause as Error).message})`,
      {
        path: url,
        cause,
      },
    );
  }
}

/** The answer to `request` when it is 200 or 206; else the error that names the URL. */
async function ask(send: (request: Request) => Promise<Response>, request: Request, url: string): Promise<Response> {
  let response: Response;
  try {
    response = await send(request);
  } catch (cause) {
    if (cause instanceof Error && cause.name !== "TypeError") throw cause;
    throw new NetcdfError("InvalidFile", `${url}: cannot fetch (${(cause as Error).message})`, { path: url, cause });
  }
  if (response.status === 200 || response.status === 206) return response;
  await response.body?.cancel();
  if (response.status === 404) throw new NetcdfError("FileNotFound", `${url}: no such file (HTTP 404)`, { path: url });
  throw new NetcdfError("InvalidFile", `${url}: HTTP ${response.status} ${response.statusText}`.trim(), { path: url });
}
