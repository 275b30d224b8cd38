/**
 * The HTTP server of `lance-nd serve` (node:http): each dataset of one
 * table as a Zarr group, read-only, behind the guard of http/guard.ts (a token in
 * the path, the Host checked), GET and HEAD only, store reads taking turns
 * (CLI README, "serve").
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";
import type { ZarrStore, ZarrStoreOptions } from "lance-nd";
import pLimit from "p-limit";
import { BadPath, Guard } from "../http/guard.js";
import type { Turned } from "../http/guard.js";
import { close, listen } from "../http/listen.js";
import { corsHeaders, send } from "../http/send.js";
import type { Answer } from "../http/send.js";
import { type Io, jsonReplacer } from "../io.js";
import { isUserError, oneLine } from "../report.js";
import { PinGone, PinnedStores } from "./pinned-stores.js";
import { Connections } from "./connections.js";
import { idSegment, parseRoute, pathToken } from "./routes.js";
import type { Pin } from "./routes.js";

/** Chunk reads that run at once; the others wait their turn (metadata never waits behind them). */
const STORE_READS_AT_ONCE = 2;
/** Chunk answers read or being sent at once: bounds the bytes in flight to this many chunks, whatever clients do. */
const CHUNK_ANSWERS_AT_ONCE = 8;
/** A request's headers must arrive within this (slow-header clients are cut), its whole request within {@link REQUEST_MS}. */
const HEADERS_MS = 10_000;
const REQUEST_MS = 30_000;
/** A connection that takes no byte of its answer for this long is closed (a client that stops reading its answer gives its slot back). */
const STALLED_MS = 30_000;

/** Options of {@link startServeServer}. */
export interface ServeServerOptions {
  /** The table. */
  uri: string;
  /** The branch served by default and by `@v<N>`; default main. */
  branch?: string;
  /** The version (number or tag) served by default; default the branch's latest, pinned when the server starts. */
  version?: number | string;
  /** The options of each Zarr store (Zarr version, codec). */
  store: ZarrStoreOptions;
  /** The options of the object store the table is on (`--storage-option`). */
  storageOption?: Record<string, string>;
  /** The address to bind; a wildcard (0.0.0.0, ::) accepts any Host header and relies on the token alone. */
  host: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** The one origin a browser may read the answers from (CORS); none by default. */
  cors?: string;
  /** Where a version served that is half an import is warned about (one line each); none by default. */
  io?: Io;
}

/** One dataset served. */
interface ServedDataset {
  /** Its id, as the store names it. */
  id: string;
  /** The URL of its Zarr group (ends with a slash). */
  url: string;
}

/** A running `serve`. */
export interface ServeServer {
  /** The base URL with its token, `http://127.0.0.1:PORT/<token>/`. */
  url: string;
  port: number;
  token: string;
  /** The version the base URL serves (pinned at the start). */
  version: number;
  /** The datasets of that version. */
  datasets: ServedDataset[];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** How a request is answered: `send` resolves once the answer is out or the client has gone (`gone`). */
interface Reply {
  send(answer: Answer): Promise<void>;
  readonly gone: boolean;
}

/**
 * Opens the table's default store (so a missing table, version or branch
 * fails before listening) and serves it. Throws what opening throws, and
 * `CliError` `InvalidArgument` when the address cannot be bound.
 */
export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const stores = openStores(options);
  const first = await stores.store({ kind: "default" });
  const ids = await first.datasets();
  const guard = new Guard(options.host);
  const server = createServeServer(requestHandler(stores, guard, options), options.cors);
  const { port, hosts, urlHost } = await listen(server, options.host, options.port);
  guard.listening(hosts);
  const url = `http://${urlHost}/${guard.token}/`;
  return {
    url,
    port,
    token: guard.token,
    version: first.version,
    datasets: ids.map((id) => ({ id, url: `${url}${idSegment(id)}/` })),
    close: () => close(server),
  };
}

/** The stores of the table that `options` name, one per pinned version (none opened yet). */
function openStores(options: ServeServerOptions): PinnedStores {
  return new PinnedStores({
    uri: options.uri,
    store: options.store,
    ...(options.branch === undefined ? {} : { branch: options.branch }),
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(options.storageOption === undefined ? {} : { storageOption: options.storageOption }),
    ...(options.io === undefined ? {} : { io: options.io }),
  });
}

/** How one request is answered, through its {@link Reply}. */
type Handler = (request: IncomingMessage, reply: Reply) => Promise<void>;

/**
 * The node:http server of `serve`, not yet listening: each connection
 * admitted by {@link Connections}, slow headers and requests cut, each
 * request answered by `handle` (CORS for the origin `cors`), and what
 * `handle` throws answered by {@link failed}.
 */
function createServeServer(handle: Handler, cors: string | undefined): Server {
  const connections = new Connections();
  const server = createServer((request, response) => {
    connections.busy(request.socket, response);
    const reply = replyTo(request, response, cors);
    handle(request, reply)
      .catch((err: unknown) => {
        if (response.headersSent) response.destroy();
        else return reply.send(failed(request, err));
      })
      .catch(() => response.destroy());
  });
  server.headersTimeout = HEADERS_MS;
  server.requestTimeout = REQUEST_MS;
  server.on("connection", (socket: Socket) => connections.admit(socket));
  return server;
}

/** The {@link Reply} of `request`: it sends one answer, unless the client has gone first (then nothing is read or sent for it). */
function replyTo(request: IncomingMessage, response: ServerResponse, cors: string | undefined): Reply {
  // Closed once the answer is sent, or when the client goes away first.
  let closed = false;
  const done = new Promise<void>((resolve) =>
    response.once("close", () => {
      closed = true;
      resolve();
    }),
  );
  return {
    send(answer) {
      if (closed) return done;
      // Armed once the answer is out, not while the request waits its turn: it cuts a client that stops reading.
      response.setTimeout(STALLED_MS, () => response.destroy());
      send(request, response, answer, corsHeaders(request, cors));
      return done;
    },
    get gone() {
      return closed;
    },
  };
}

/**
 * The answers of `serve`: the guard first (403, 405), then the path's route
 * (400 for a bad one) to a pinned store, and from it the pin's listing, a
 * metadata document or a chunk (404 for a key the store has not).
 */
function requestHandler(stores: PinnedStores, guard: Guard, options: ServeServerOptions): Handler {
  const chunks = chunkReader();
  return async (request, reply) => {
    const [path = "/", query = ""] = (request.url ?? "/").split("?", 2);
    const turned = guard.check(request, pathToken(path), false);
    if (turned !== undefined) return reply.send(turnedAway(turned));
    const route = parseRoute(path);
    const store = await pinnedStore(stores, route.pin, new URLSearchParams(query).has("refresh"), options.uri);
    const key = route.key;
    if (key === undefined)
      return reply.send(json(listing(store.version, options.store.zarrVersion ?? 2, await store.datasets())));
    if (keyType(key) === JSON_TYPE) {
      // Metadata is small and read from the pinned version's cache: it never waits behind chunk reads.
      const value = await store.get(key);
      return reply.send(
        value === undefined ? text(404, `no key ${key} in version ${store.version}`) : answer(key, value),
      );
    }
    return chunks(store, key, reply);
  };
}

/**
 * A function that answers a chunk `key` of `store` with its value (a 404
 * when it has none) and a `Server-Timing` of its wait and its read. A chunk
 * answer holds an answer slot until it is sent (or its client is cut), and
 * a read turn only while it reads: a client that does not read its answer
 * holds no read turn, and the bytes in flight are at most
 * {@link CHUNK_ANSWERS_AT_ONCE} chunks.
 */
function chunkReader(): (store: ZarrStore, key: string, reply: Reply) => Promise<void> {
  const turns = pLimit(STORE_READS_AT_ONCE);
  const answers = pLimit(CHUNK_ANSWERS_AT_ONCE);
  return (store, key, reply) => {
    const queued = performance.now();
    return answers(async () => {
      if (reply.gone) return;
      const [value, started] = await turns(async () => {
        const start = performance.now();
        return [reply.gone ? undefined : await store.get(key), start] as const;
      });
      const timing = `wait;dur=${(started - queued).toFixed(2)}, read;dur=${(performance.now() - started).toFixed(2)}`;
      await reply.send(
        value === undefined
          ? text(404, `no key ${key} in version ${store.version}`, { "server-timing": timing })
          : answer(key, value, { "server-timing": timing }),
      );
    });
  };
}

/** The store of `pin`; a version, tag or branch that does not exist is a 404 naming it (the table `uri` by its base name). */
async function pinnedStore(stores: PinnedStores, pin: Pin, refresh: boolean, uri: string): Promise<ZarrStore> {
  try {
    return await stores.store(pin, refresh);
  } catch (err) {
    if (err instanceof PinGone) throw err;
    if (isUserError(err)) throw new NotFound(relativeToRoot(oneLine((err as Error).message), uri));
    throw err;
  }
}

const JSON_TYPE = "application/json; charset=utf-8";

/** The content type of a store key: JSON for metadata documents, bytes for chunks. */
function keyType(key: string): string {
  return /\/(\.zmetadata|\.zarray|\.zattrs|\.zgroup|zarr\.json)$/.test(key) ? JSON_TYPE : "application/octet-stream";
}

/** A pin whose version, tag or branch does not exist. */
class NotFound extends Error {
  override readonly name = "NotFound";
}

function text(status: number, message: string, headers: Record<string, string> = {}): Answer {
  return { status, type: "text/plain; charset=utf-8", body: `${message}\n`, headers };
}

/** The answer to a request the guard turned away: 403 with the reason, or 405 naming the methods allowed. */
function turnedAway(turned: Turned): Answer {
  return turned.status === 403
    ? text(403, `refused: ${turned.reason}`)
    : text(405, `${turned.method} is not allowed: the server is read-only (GET and HEAD)`, { allow: "GET, HEAD" });
}

/** The listing of a pin's root: its version, the datasets' ids and the path of each one's group (ids escaped, see `idSegment`). */
function listing(version: number, zarrVersion: number, datasets: readonly string[]) {
  return { version, zarrVersion, datasets, paths: datasets.map((id) => `${idSegment(id)}/`) };
}

/** A store value as the answer to `key`: JSON for metadata documents, bytes for chunks. */
function answer(key: string, value: Uint8Array, headers: Record<string, string> = {}): Answer {
  return { status: 200, type: keyType(key), body: value, headers };
}

/** `message` with the served table named by its base name: an answer never shows where the table is on the server. */
function relativeToRoot(message: string, uri: string): string {
  return message.replaceAll(`table "${uri}": `, "").replaceAll(uri, basename(uri));
}

function json(value: unknown): Answer {
  return { status: 200, type: JSON_TYPE, body: JSON.stringify(value, jsonReplacer) };
}

/** The answer to a request that threw: 400 for a bad path or key, 404 for an unknown pin, 410 for a branch pin gone, else 500. */
function failed(request: IncomingMessage, err: unknown): Answer {
  if (err instanceof BadPath) return text(400, `bad path: ${err.message}`);
  if (err instanceof PinGone) return text(410, err.message);
  if (err instanceof NotFound) return text(404, err.message);
  if (isUserError(err)) return text(400, oneLine((err as Error).message));
  process.stderr.write(
    `lance-nd serve: unexpected error on ${request.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  return text(500, "the server failed to answer (see its terminal)");
}
