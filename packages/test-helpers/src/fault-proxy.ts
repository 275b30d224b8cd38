/**
 * A fault-injecting HTTP proxy in front of a local object store (s3rver or
 * Azurite): the tests of what lance-nd does when the store answers 401,
 * 403, 404, 5xx or drops the connection (packages/lance-nd README,
 * "check" and "Guarantees").
 */
import { type IncomingMessage, type ServerResponse, createServer, request as httpRequest } from "node:http";
import { listenLocally } from "./local-server.js";
import type { ObjectStoreServer } from "./object-stores.js";

/**
 * A fault a {@link FaultProxy} answers in place of the store: an HTTP
 * `status` with the store's error body (`AccessDenied`, `NoSuchKey`,
 * `SlowDown`...), `reset` (the connection is destroyed before any
 * answer), or `delayMs` (the request is forwarded that much later: a slow
 * store). `times` bounds how many requests it hits (default: all).
 */
export type StoreFault = ({ status: 401 | 403 | 404 | 500 | 503 } | { reset: true } | { delayMs: number }) & {
  /** Which requests: the object path (e.g. `/bucket/t.lance/data/…`) must match. */
  path: RegExp;
  /** Only requests of this method (e.g. `GET`); any when unset. */
  method?: string;
  /** How many matching requests fail; every one when unset. */
  times?: number;
};

/** An object store behind a fault-injecting proxy: {@link ObjectStoreServer} plus the faults it injects. */
export interface FaultProxy extends ObjectStoreServer {
  /** Replaces the faults the proxy injects ([] for none). */
  inject(faults: StoreFault[]): void;
  /** The requests a fault answered so far, as `METHOD path status`. */
  readonly faulted: readonly string[];
}

// The error codes S3 and Azure answer with, per status.
const S3_CODES: Record<number, string> = {
  401: "InvalidAccessKeyId",
  403: "AccessDenied",
  404: "NoSuchKey",
  500: "InternalError",
  503: "SlowDown",
};
const AZURE_CODES: Record<number, string> = {
  401: "NoAuthenticationInformation",
  403: "AuthorizationPermissionMismatch",
  404: "BlobNotFound",
  500: "InternalError",
  503: "ServerBusy",
};

/**
 * Starts an HTTP proxy on 127.0.0.1 (a free port) in front of `store` (an
 * {@link startS3Server} or {@link startAzurite} server) that forwards every
 * request unchanged (the `Host` header too, so signatures hold) unless a
 * fault set with `inject` matches it. `stop` stops the proxy and the store.
 */
export async function startFaultProxy(store: ObjectStoreServer): Promise<FaultProxy> {
  const s3 = store.root.startsWith("s3://");
  const upstream = new URL(s3 ? store.storageOptions.endpoint! : store.storageOptions.azure_storage_endpoint!);
  let faults: Array<StoreFault & { left: number }> = [];
  const faulted: string[] = [];
  const server = createServer((request, response) => {
    const target = decodeURIComponent(new URL(request.url ?? "/", "http://proxy").pathname);
    const fault = faults.find(
      (f) => f.left > 0 && f.path.test(target) && (f.method ?? request.method) === request.method,
    );
    if (fault !== undefined) {
      fault.left--;
      if ("delayMs" in fault) {
        faulted.push(`${request.method} ${target} delayed ${fault.delayMs} ms`);
        setTimeout(() => forward(request, response), fault.delayMs);
        return;
      }
      if ("reset" in fault) {
        faulted.push(`${request.method} ${target} reset`);
        request.socket.destroy();
        return;
      }
      faulted.push(`${request.method} ${target} ${fault.status}`);
      const code = (s3 ? S3_CODES : AZURE_CODES)[fault.status]!;
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>injected ${code}</Message></Error>`;
      request.resume();
      response.writeHead(fault.status, {
        "content-type": "application/xml",
        "content-length": Buffer.byteLength(body),
        ...(s3 ? {} : { "x-ms-error-code": code }),
      });
      response.end(request.method === "HEAD" ? undefined : body);
      return;
    }
    forward(request, response);
  });
  /** Sends `request` on to the store as it came, and its answer back. */
  function forward(request: IncomingMessage, response: ServerResponse): void {
    const upstreamRequest = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstreamRequest.on("error", () => request.socket.destroy());
    request.pipe(upstreamRequest);
  }
  const { origin, stop } = await listenLocally(server);
  const endpoint = `${origin}${upstream.pathname === "/" ? "" : upstream.pathname}`;
  const key = s3 ? "endpoint" : "azure_storage_endpoint";
  const envKey = s3 ? "AWS_ENDPOINT" : "AZURE_STORAGE_ENDPOINT";
  return {
    root: store.root,
    storageOptions: { ...store.storageOptions, [key]: endpoint },
    env: { ...store.env, [envKey]: endpoint },
    faulted,
    inject(next) {
      faults = next.map((f) => ({ ...f, left: f.times ?? Number.POSITIVE_INFINITY }));
    },
    async stop() {
      await stop();
      await store.stop();
    },
  };
}
