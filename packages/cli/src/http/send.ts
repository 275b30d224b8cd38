/**
 * Answers of the command line's local servers (`view`, `serve`): the
 * headers every answer carries, the CORS headers of an allowed origin, and
 * writing an answer (no body for HEAD).
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** An HTTP answer: status, content type, body, and headers of its own. */
export interface Answer {
  status: number;
  type: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

/** Headers of every answer: nothing cached, no content sniffing, no referrer. */
const HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/**
 * The CORS headers of the answer to `request` when the server lets the one
 * origin `cors` read its answers (none when `cors` is undefined): `Vary:
 * Origin` always, and the allow headers only for a request from `cors`.
 */
export function corsHeaders(request: IncomingMessage, cors: string | undefined): Record<string, string> {
  if (cors === undefined) return {};
  if (request.headers.origin !== cors) return { vary: "Origin" };
  return {
    vary: "Origin",
    "access-control-allow-origin": cors,
    "access-control-expose-headers": "Server-Timing, Content-Length",
    "timing-allow-origin": cors,
  };
}

/**
 * Writes `answer` to `response`: {@link HEADERS}, then `serverHeaders`, then
 * the answer's own headers, its content type and length; the body unless
 * the request is a HEAD.
 */
export function send(
  request: IncomingMessage,
  response: ServerResponse,
  answer: Answer,
  serverHeaders: Readonly<Record<string, string>> = {},
): void {
  const body = typeof answer.body === "string" ? Buffer.from(answer.body) : answer.body;
  response.writeHead(answer.status, {
    ...HEADERS,
    ...serverHeaders,
    ...answer.headers,
    "content-type": answer.type,
    "content-length": body.byteLength,
  });
  response.end(request.method === "HEAD" ? undefined : body);
}
