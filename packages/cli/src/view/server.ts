/**
 * The viewer's HTTP server (node:http): its page, the page's script and
 * the API of one table, read-only, behind the guard of `http/guard.ts`.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { CliError } from "../errors.js";
import { Guard } from "../http/guard.js";
import { close, listen } from "../http/listen.js";
import { send } from "../http/send.js";
import type { Answer } from "../http/send.js";
import { ViewApi, error } from "./api.js";
import { TOKEN_HEADER } from "./guard-header.js";
import { pageHtml } from "./page-html.js";

/** The file name of the page's script bundle in the assets folder (built by tsup). */
const PAGE_SCRIPT = "page.js";

/** Options of {@link startViewServer}. */
export interface ViewServerOptions {
  /** The table. */
  uri: string;
  /** The branch served (its versions); default main. */
  branch?: string;
  /** The options of the object store the table is on (`--storage-option`). */
  storageOption?: Record<string, string>;
  /** The address to bind; a wildcard (0.0.0.0, ::) accepts any Host header and relies on the token alone. */
  host: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** The folder holding the page's script bundle. */
  assetsDir: string;
  /** The token; default a fresh random one. */
  token?: string;
}

/** A running viewer. */
export interface ViewServer {
  /** The page's address with its token, e.g. `http://127.0.0.1:8321/?token=...`. */
  url: string;
  port: number;
  token: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Headers of the viewer's answers besides those of every answer (`http/send.ts`): no framing, only its own script. */
const VIEW_HEADERS = {
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
};

/**
 * Opens the table and serves it. Throws what opening the table throws (a
 * missing table, a damaged one) and `CliError` `InvalidArgument` when the
 * address cannot be bound (e.g. the port is taken).
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const api = new ViewApi(options.uri, {
    ...(options.branch === undefined ? {} : { branch: options.branch }),
    ...(options.storageOption === undefined ? {} : { storageOption: options.storageOption }),
  });
  await api.open();
  const script = await readFile(join(options.assetsDir, PAGE_SCRIPT)).catch((cause: unknown) => {
    throw new CliError(
      "FileNotFound",
      `the page script ${join(options.assetsDir, PAGE_SCRIPT)} is missing (build the CLI)`,
      { cause },
    );
  });
  const guard = new Guard(options.host, options.token);
  const token = guard.token;

  const server = createServer((request, response) => {
    handle(request)
      .catch(() => error(500, "Internal", "the server failed to answer"))
      .then((answer) => send(request, response, answer, VIEW_HEADERS))
      .catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? "/", "http://viewer.invalid");
    const api = url.pathname.startsWith("/api/");
    const given = url.searchParams.get("token") ?? headerValue(request, TOKEN_HEADER);
    const turned = guard.check(request, given, api);
    if (turned?.status === 403) return error(403, "Forbidden", `refused: ${turned.reason}`);
    if (turned?.status === 405) return error(405, "MethodNotAllowed", "the viewer is read-only: GET only");
    if (url.pathname === "/")
      return { status: 200, type: "text/html; charset=utf-8", body: pageHtml(token, options.uri) };
    if (url.pathname === `/assets/${PAGE_SCRIPT}`)
      return { status: 200, type: "text/javascript; charset=utf-8", body: script };
    if (api) return apiAnswer(url);
    return error(404, "NotFound", `nothing at ${url.pathname}`);
  }

  function apiAnswer(url: URL): Promise<Answer> {
    const route = url.pathname.slice("/api/".length);
    return api.answer(route, url.searchParams);
  }

  const { port, hosts, urlHost } = await listen(server, options.host, options.port);
  guard.listening(hosts);
  return { url: `http://${urlHost}/?token=${token}`, port, token, close: () => close(server) };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
