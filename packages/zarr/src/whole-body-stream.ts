/**
 * The whole object a server sent for a range (it ignores `Range`), handed
 * on as it arrives for a caller that keeps it (`passWhole`,
 * remote-requests.ts): never gathered in memory, so a file of any size
 * costs a chunk or two (README "Memory bounds"). Each chunk is counted as
 * it passes (`onBytes`); a body that ends short of its `content-length`,
 * runs past it, or whose connection drops errors the stream, so a cut
 * object is never taken for a whole one. Once bytes have been handed on
 * the request cannot be tried again: the caller that keeps the object
 * asks again if it wants to (@lance-nd/netcdf's `openUrlSource`).
 */

/**
 * `response`'s body (status 200) as a stream of the chunks as they come,
 * each counted by `onBytes`; `failed(why, cause)` is the error the stream
 * ends with when the body is cut (`cause`: the network's error, when the
 * connection dropped).
 */
export function wholeBodyStream(
  response: Response,
  onBytes: ((bytes: number) => void) | undefined,
  failed: (why: string, cause?: unknown) => Error,
): Response {
  const declared = response.headers.get("content-length");
  const expected = declared === null ? undefined : Number(declared);
  const of = declared === null ? "" : ` of ${declared}`;
  const reader = response.body?.getReader();
  let received = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
        try {
          chunk = reader === undefined ? { done: true, value: undefined } : await reader.read();
        } catch (cause) {
          controller.error(failed(`the connection dropped after ${received}${of} bytes`, cause));
          return;
        }
        if (chunk.done) {
          if (expected !== undefined && received !== expected)
            controller.error(failed(`the body ended after ${received}${of} bytes`));
          else controller.close();
          return;
        }
        received += chunk.value.byteLength;
        onBytes?.(chunk.value.byteLength);
        if (expected !== undefined && received > expected) {
          controller.error(failed(`the body ran past its ${declared} bytes`));
          await reader?.cancel();
          return;
        }
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    // Nothing read ahead of the reader: what is buffered is what it has not taken yet.
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: declared === null ? {} : { "content-length": declared } });
}
