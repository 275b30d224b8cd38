/**
 * Answers whose body reaches their reader without a copy (bench/README.md,
 * "Import of part of a store elsewhere"). `storeFetch` reads a body into
 * one buffer of its declared length; a `Response` made over those bytes
 * would copy them (Node 20: 260 ms for 7.5 MiB), and its `arrayBuffer()`,
 * which zarrita's FetchStore calls, copies them twice more (undici joins
 * the stream's chunks with `Buffer.concat`, then copies the result into a
 * new `ArrayBuffer`). The answer made here keeps the bytes: its body is a
 * stream of that one chunk, and `arrayBuffer()` answers the bytes' own
 * buffer when they fill it. zarrita hands those bytes to the codecs and
 * keeps nothing of them, so the blosc pool may move such a buffer to a
 * worker instead of copying it ({@link isHandedOn}).
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

/**
 * An answer of `status` with `bytes` as its body, which no one else holds:
 * read as a stream, one chunk of them; by `arrayBuffer()`, their own buffer
 * when they fill it (handed on), else a copy of them.
 */
export function answerOf(bytes: Uint8Array, status: number): Response {
  return new KeptBodyAnswer(bytes, status);
}

class KeptBodyAnswer extends Response {
  readonly #bytes: Uint8Array;

  constructor(bytes: Uint8Array, status: number) {
    super(oneChunk(bytes), { status, headers: { "content-length": String(bytes.byteLength) } });
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

/** `bytes` as a stream of one chunk, passed on without a copy. */
function oneChunk(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
