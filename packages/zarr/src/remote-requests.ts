/**
 * The requests of a store read over HTTP (README "Stores elsewhere"): a
 * bounded number in flight, each retried with backoff when the server is
 * busy (429, 5xx) or the connection drops before the whole body came, and
 * a clear error naming the URL when the server refuses it (401, 403, any
 * other status but 404, which is a missing key as in zarrita's FetchStore).
 * A server that ignores `Range` and answers the whole body is read
 * correctly: the range is cut from it (or the whole body passed on as it
 * arrives, for a caller that keeps it: `passWhole`, whole-body-stream.ts).
 */
import pLimit from "p-limit";
import { answerOf } from "./uncopied-bodies.js";
import { wholeBodyStream } from "./whole-body-stream.js";
import { ZarrError } from "./zarr-error.js";

/** How a store elsewhere is asked for its keys. */
export interface RequestOptions {
  /** The most requests in flight at once. Default: 4. */
  maxRequests?: number;
  /** How many times a request the server could not answer (429, 5xx, a dropped connection) is tried again. Default: 4. */
  retries?: number;
  /** The pause before the first retry, in milliseconds, doubled for each next one. Default: 200. */
  retryDelayMs?: number;
  /**
   * Called with the bytes of every body received from the network (for a
   * progress bar): all of them, a whole object from a server that ignores
   * `Range` and a body that came short included; not a body the connection
   * dropped in the middle of, except one handed on as it arrives
   * (`passWhole`), whose chunks are counted as they pass.
   */
  onBytes?: (bytes: number) => void;
  /** The fetch that sends the requests (e.g. one that signs them); default: the global `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * What a server that ignores `Range` sent (200 and the whole object) is
   * passed on as it came, not cut to the range asked for: for a caller
   * that keeps the whole object for its later reads (@lance-nd/netcdf's
   * `openUrlSource`). Default: false (zarrita's FetchStore wants the range).
   * The whole object is handed on as it arrives, not read into memory
   * first (README "Memory bounds"); it no longer counts against
   * `maxRequests` once its answer has come. A body cut short (a dropped
   * connection) errors the stream with `ReadFailed` naming the URL, and
   * is not tried again: its first bytes were already handed on.
   */
  passWhole?: boolean;
}

/** The defaults of {@link RequestOptions}. */
const DEFAULT_MAX_REQUESTS = 4;
const DEFAULT_RETRIES = 4;
const DEFAULT_RETRY_DELAY_MS = 200;

/**
 * A fetch for zarrita's FetchStore that follows {@link RequestOptions}. It
 * answers 404 or the body (200, or 206 for a range) read in full, whose
 * `arrayBuffer()` hands on the bytes read without a copy
 * (uncopied-bodies.ts), but a whole object passed on as it arrives
 * (`passWhole`); `ReadFailed` naming the URL for a refusal or when the
 * retries run out.
 */
export function storeFetch(options: RequestOptions = {}): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const retries = options.retries ?? DEFAULT_RETRIES;
  const delay = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  // At most maxRequests in flight, the others waiting in order.
  const inFlight = pLimit(Math.max(1, Math.floor(options.maxRequests ?? DEFAULT_MAX_REQUESTS)));
  return (request) =>
    inFlight(async () => {
      for (let attempt = 0; ; attempt++) {
        const outcome = await attemptOnce(send, request.clone(), options);
        if (outcome instanceof Response) return outcome;
        if (attempt >= retries) {
          throw new ZarrError("ReadFailed", `${what(request)}: ${outcome} (after ${retries + 1} tries)`, {
            path: request.url,
          });
        }
        await new Promise((resolve) => setTimeout(resolve, delay * 2 ** attempt));
      }
    });
}

/**
 * One try: the answer (404, the whole body of the asked range, or with
 * `passWhole` the whole object as it arrives), or why it is worth trying
 * again; `onBytes` hears of the body received.
 */
async function attemptOnce(
  send: (request: Request) => Promise<Response>,
  request: Request,
  { onBytes, passWhole }: RequestOptions,
): Promise<Response | string> {
  let response: Response;
  let body: Uint8Array;
  try {
    response = await send(request);
    if (response.status === 404) {
      await response.body?.cancel();
      return new Response(null, { status: 404 });
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      return `HTTP ${response.status} ${response.statusText}`.trim();
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      throw new ZarrError(
        "ReadFailed",
        `${what(request)}: HTTP ${response.status} ${response.statusText} (${refusal(response.status)})`.trim(),
        { path: request.url },
      );
    }
    if (request.method === "HEAD") {
      await response.body?.cancel();
      const size = response.headers.get("content-length");
      return new Response(null, { status: 200, headers: size === null ? {} : { "content-length": size } });
    }
    if (passWhole && response.status === 200 && askedRange(request) !== undefined) {
      // The whole object, for a caller that keeps it: handed on as it arrives, not gathered here.
      return wholeBodyStream(response, onBytes, (why, cause) => streamCut(request, why, cause));
    }
    body = await bodyOf(response);
    onBytes?.(body.byteLength);
  } catch (cause) {
    if (cause instanceof ZarrError) throw cause;
    // fetch rejects when the connection drops, before the answer or in the middle of its body.
    return `the connection failed (${networkText(cause)})`;
  }
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) !== body.byteLength)
    return `the body ended after ${body.byteLength} of ${declared} bytes`;
  const range = askedRange(request);
  if (range !== undefined && response.status === 200) {
    // The server ignored Range and sent the whole object: keep the bytes asked for.
    body = body.subarray(range.start, range.end === undefined ? undefined : range.end + 1);
  }
  return answerOf(body, range === undefined ? 200 : 206);
}

/**
 * The whole body of `response`, read chunk by chunk into one buffer of its
 * declared length: `arrayBuffer()` gathers the chunks, then copies them
 * into one (Node 20: 170 ms against 50 ms for a 7.5 MiB chunk, bench/README.md,
 * "Import of part of a store elsewhere"). A body without a length, or longer
 * than declared, is gathered, then joined.
 */
async function bodyOf(response: Response): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  let whole = Number.isSafeInteger(declared) && declared >= 0 ? new Uint8Array(declared) : undefined;
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (whole !== undefined && length + value.length <= whole.length) whole.set(value, length);
    else {
      if (whole !== undefined) chunks.push(whole.subarray(0, length));
      whole = undefined;
      chunks.push(value);
    }
    length += value.length;
  }
  if (whole !== undefined) return whole.subarray(0, length);
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

/** `GET http://host/store/key` (with its range when it has one). */
function what(request: Request): string {
  const range = request.headers.get("range");
  return `${request.method} ${request.url}${range === null ? "" : ` (${range})`}`;
}

/** Why a server refuses with `status`, in a few words. */
function refusal(status: number): string {
  if (status === 401 || status === 403) return "access denied: check the credentials";
  return "the server refused the request";
}

/** The message of a network error `err`, with the one under it (undici puts the socket's in `cause`). */
function networkText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

/**
 * The error that ends a whole object handed on as it arrives (`passWhole`)
 * when its body is cut: `ReadFailed` naming the request and saying it is
 * not tried again (its first bytes are already with the caller).
 */
function streamCut(request: Request, why: string, cause: unknown): ZarrError {
  const network = cause === undefined ? "" : ` (${networkText(cause)})`;
  return new ZarrError(
    "ReadFailed",
    `${what(request)}: the server ignores Range and sent the whole object, which was cut: ${why}${network}; not retried, as its first bytes were already handed on`,
    { path: request.url, cause },
  );
}

/** The `bytes=a-b` range of `request`, if any (suffix ranges are never sent: FetchStore asks HEAD first). */
function askedRange(request: Request): { start: number; end: number | undefined } | undefined {
  const match = /^bytes=(\d+)-(\d*)$/.exec(request.headers.get("range") ?? "");
  if (match === null) return undefined;
  return { start: Number(match[1]), end: match[2] === "" ? undefined : Number(match[2]) };
}
