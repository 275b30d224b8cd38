/**
 * Who may talk to the command line's local servers (`view`, `serve`) and
 * what they may ask: a request must name the served address in its `Host`
 * header (a page on another site that rebinds its DNS name to 127.0.0.1
 * sends its own name), carry the server's random token, and, for the
 * viewer's API, come from the server's own page when it has an `Origin`;
 * only GET and HEAD are answered. Jupyter's notebook server guards its port
 * the same way. A path read segment by segment refuses `.` and `..` (and
 * their percent-encoded forms, `%2e%2e`) before anything is resolved.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A fresh random token: 24 bytes as 48 hex digits. */
function newToken(): string {
  return randomBytes(24).toString("hex");
}

/** What the guard knows about the server it protects. */
interface GuardOptions {
  /** The `host:port` values a request's `Host` may have. */
  hosts: readonly string[];
  token: string;
}

/** The `host:port` names of a server bound to `host` at `port`: loopback also answers to `localhost`. */
export function servedHosts(host: string, port: number): string[] {
  const names = new Set([host.includes(":") ? `[${host}]` : host]);
  if (host === "127.0.0.1" || host === "::1" || host === "localhost")
    for (const name of ["127.0.0.1", "localhost", "[::1]"]) names.add(name);
  return [...names].map((name) => `${name}:${port}`);
}

/** True for a wildcard address (0.0.0.0, ::), which accepts any `Host` header and relies on the token alone. */
export function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::";
}

/**
 * Why `request` is refused (a short reason for the 403 answer), or
 * undefined when it may pass. `token` is the one the request carried (path,
 * query or header); `api` is true for the viewer's API routes, which also
 * check `Origin`.
 */
function refusal(
  request: IncomingMessage,
  token: string | undefined,
  api: boolean,
  options: GuardOptions,
): string | undefined {
  // Node keeps the first of repeated Host headers: a request with two is refused, whichever comes first.
  if ((request.headersDistinct.host?.length ?? 0) > 1) return "more than one Host header";
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !options.hosts.includes(host)) return "the Host header is not this server's address";
  const origin = request.headers.origin;
  if (api && origin !== undefined && origin !== `http://${host}`) return "the Origin is not this server's page";
  if (token === undefined || !sameToken(token, options.token)) return "a missing or wrong token";
  return undefined;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A request turned away: 403 with the reason, or 405 for a method other than GET and HEAD. */
export type Turned = { status: 403; reason: string } | { status: 405; method: string };

/** The guard of a server bound to `host`: its token and, once it listens, the `Host` values it accepts. */
export class Guard {
  readonly token: string;
  readonly #wildcard: boolean;
  #hosts: readonly string[] = [];

  /** The guard of a server to bind to `host`, with `token` (default a fresh random one). */
  constructor(host: string, token: string = newToken()) {
    this.token = token;
    this.#wildcard = isWildcard(host);
  }

  /** Accepts the `Host` values of the address the server got (`Listening.hosts`); none before. */
  listening(hosts: readonly string[]): void {
    this.#hosts = hosts;
  }

  /**
   * Why `request` is turned away, or undefined when it may pass: the
   * `Host`, `Origin` (for `api` routes) and `token` it carried first (403),
   * then its method (405). A wildcard server accepts any `Host`.
   */
  check(request: IncomingMessage, token: string | undefined, api: boolean): Turned | undefined {
    const hosts = this.#wildcard ? [request.headers.host?.toLowerCase() ?? ""] : this.#hosts;
    const reason = refusal(request, token, api, { hosts, token: this.token });
    if (reason !== undefined) return { status: 403, reason };
    const method = String(request.method);
    if (method !== "GET" && method !== "HEAD") return { status: 405, method };
    return undefined;
  }
}

/** A path that is not one the server answers: the one-line reason for the 400 answer. */
export class BadPath extends Error {
  override readonly name = "BadPath";
}

/**
 * The segments of a raw request path (without its query), each
 * percent-decoded, the first one empty (the path starts with `/`). Throws
 * {@link BadPath} for a path that does not start with `/`, bad
 * percent-encoding, or a `.` or `..` segment, in any encoding.
 */
export function pathSegments(path: string): string[] {
  const raw = path.split("/");
  if (raw[0] !== "") throw new BadPath("the path must start with /");
  return ["", ...raw.slice(1).map(decodeSegment)];
}

function decodeSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    throw new BadPath(`bad percent-encoding in the path segment "${segment}"`);
  }
  if (decoded === "." || decoded === "..") throw new BadPath("the path may not hold . or .. segments");
  return decoded;
}
