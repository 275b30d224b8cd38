/**
 * The answers of `storeFetch` hand their bodies on without a copy
 * (src/uncopied-bodies.ts): `arrayBuffer()` is the buffer the body was read
 * into, whatever chunks the server's body came in; the range cut out of a
 * whole object a server sent is copied out, not handed on; the body also
 * reads as a stream.
 */
import { describe, expect, it } from "vitest";
import { storeFetch } from "../src/remote-requests.js";
import { isHandedOn } from "../src/uncopied-bodies.js";

/** A body that arrives as `chunks`. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** A storeFetch over a server that answers every request with `status` and a body of `chunks`. */
function fetchAnswering(status: number, chunks: readonly Uint8Array[]): (request: Request) => Promise<Response> {
  const length = chunks.reduce((n, chunk) => n + chunk.byteLength, 0);
  return storeFetch({
    fetch: async () => new Response(streamOf(chunks), { status, headers: { "content-length": String(length) } }),
  });
}

const ranged = new Request("http://store.test/t/0.0.0", { headers: { range: "bytes=1-3" } });
const whole = new Request("http://store.test/t/0.0.0");

describe("storeFetch's answers", () => {
  it("a body of three chunks: read in order into one buffer, which arrayBuffer() hands on", async () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5, 6])];
    const answer = await fetchAnswering(206, chunks)(ranged);
    expect(answer.status).toBe(206);
    expect(answer.headers.get("content-length")).toBe("6");
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([...bytes]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(isHandedOn(bytes)).toBe(true);
  });

  it("the range cut out of a whole object the server sent (200 to a Range): copied out, not handed on", async () => {
    const answer = await fetchAnswering(200, [new Uint8Array([9, 1, 2, 3, 9])])(ranged);
    expect(answer.status).toBe(206);
    const buffer = await answer.arrayBuffer();
    expect([...new Uint8Array(buffer)]).toEqual([1, 2, 3]);
    expect(buffer.byteLength).toBe(3);
  });

  it("the body also reads as a stream, and whole answers are 200", async () => {
    const answer = await fetchAnswering(200, [new Uint8Array([7, 8]), new Uint8Array([9])])(whole);
    expect(answer.status).toBe(200);
    expect([...new Uint8Array(await new Response(answer.body).arrayBuffer())]).toEqual([7, 8, 9]);
  });

  it("bytes no answer handed on, or part of a buffer one did, are not handed on", async () => {
    expect(isHandedOn(new Uint8Array(8))).toBe(false);
    const bytes = new Uint8Array(await (await fetchAnswering(200, [new Uint8Array(4)])(whole)).arrayBuffer());
    expect(isHandedOn(bytes.subarray(1))).toBe(false);
  });
});
