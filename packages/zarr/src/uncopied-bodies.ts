/**
 * Answers whose body reaches zarrita without a copy (bench/README.md,
 * "Import of part of a store elsewhere"). zarrita's FetchStore reads each
 * answer with `arrayBuffer()`, which on Node 20 copies the body twice
 * (undici joins the chunks of the stream with `Buffer.concat`, then copies
 * the result into a new `ArrayBuffer`): 0.55 s of CPU for the 67 MiB of
 * chunks an import of part of a store fetched. Here the body is read from
 * its stream (one chunk: `storeFetch` hands it on as one) and
 * `arrayBuffer()` answers the chunk's own buffer when the chunk fills it.
 * zarrita hands those bytes to the codecs and keeps nothing of them, so the
 * blosc pool may move such a buffer to a worker instead of copying it
 * ({@link isHandedOn}).
 */

/** The buffers answers handed on whole through `arrayBuffer()`, which no one else holds. */
const handedOn = new WeakSet<ArrayBuffer>();

/** True when `bytes` are the whole of a buffer an answer's `arrayBuffer()` handed on (zarrita reads each once). */
export function isHandedOn(bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> {
  const buffer = bytes.buffer;
  return (
    buffer instanceof ArrayBuffer &&
    handedOn.has(buffer) &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength
  );
}

/** `send`, its answers (200 and 206) with their bodies read, `arrayBuffer()` without a copy. */
export function uncopiedBodies(send: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await send(request);
    if ((response.status !== 200 && response.status !== 206) || response.body === null) return response;
    return new ReadAnswer(await readAll(response.body), response);
  };
}

/** An answer whose body was read: `arrayBuffer()` gives its bytes, in their own buffer when they fill it. */
class ReadAnswer extends Response {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array, from: Response) {
    super(null, { status: from.status, statusText: from.statusText, headers: from.headers });
    this.#bytes = bytes;
  }

  override arrayBuffer = async (): Promise<ArrayBuffer> => {
    const bytes = this.#bytes;
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const buffer = own && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : bytes.slice().buffer;
    handedOn.add(buffer);
    return buffer;
  };
}

/** Every byte of `body`: its one chunk as it came, or its chunks joined. */
async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  if (chunks.length === 1) return chunks[0]!;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}
