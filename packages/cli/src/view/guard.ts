/**
 * Who may talk to the viewer's server: a request must name the served
 * address in its `Host` header (a page on another site that rebinds its DNS
 * name to 127.0.0.1 sends its own name), carry the server's random token,
 * and, for the API, come from the server's own page when it has an `Origin`.
 * Jupyter's notebook server guards its port the same way.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A fresh random token: 24 bytes as 48 hex digits. */
export function newToken(): string {
  return randomBytes(24).toString("hex");
}

/** What the guard knows about the server it protects. */
export interface GuardOptions {
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

/**
 * Why `request` is refused (a short reason for the 403 answer), or
 * undefined when it may pass. `token` is the one the request carried (query
 * or header); `api` is true for the API routes, which also check `Origin`.
 */
export function refusal(
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
