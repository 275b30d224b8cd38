/**
 * Answers handed to zarrita's FetchStore without a copy of their bodies
 * (src/uncopied-bodies.ts): the bytes are the body's, a body of several
 * chunks is joined, other answers pass as they came, and only a buffer an
 * answer handed on whole counts as handed on.
 */
import { describe, expect, it } from "vitest";
import { isHandedOn, uncopiedBodies } from "../src/uncopied-bodies.js";

/** A body that arrives as `chunks`. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

const request = new Request("http://store.test/t/0.0.0", { headers: { range: "bytes=0-5" } });

describe("uncopiedBodies", () => {
  it("a body of one chunk: arrayBuffer() is that chunk's own buffer, handed on", async () => {
    const chunk = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const send = uncopiedBodies(async () => new Response(streamOf([chunk]), { status: 206 }));
    const answer = await send(request);
    expect(answer.status).toBe(206);
    const buffer = await answer.arrayBuffer();
    expect(buffer).toBe(chunk.buffer);
    expect(isHandedOn(new Uint8Array(buffer))).toBe(true);
  });

  it("a body of three chunks: joined in order, the joined buffer handed on", async () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([3]), new Uint8Array([4, 5, 6])];
    const send = uncopiedBodies(async () => new Response(streamOf(chunks), { status: 200 }));
    const bytes = new Uint8Array(await (await send(request)).arrayBuffer());
    expect([...bytes]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(isHandedOn(bytes)).toBe(true);
  });

  it("a chunk that is part of a larger buffer: copied out, the caller's buffer not handed on", async () => {
    const shared = new Uint8Array([9, 1, 2, 3, 9]);
    const send = uncopiedBodies(async () => new Response(streamOf([shared.subarray(1, 4)]), { status: 200 }));
    const buffer = await (await send(request)).arrayBuffer();
    expect([...new Uint8Array(buffer)]).toEqual([1, 2, 3]);
    expect(buffer).not.toBe(shared.buffer);
    expect(isHandedOn(shared)).toBe(false);
  });

  it("404 and HEAD answers pass as they came, headers kept on bodies read", async () => {
    const missing = new Response(null, { status: 404 });
    expect(await uncopiedBodies(async () => missing)(request)).toBe(missing);
    const head = new Response(null, { status: 200, headers: { "content-length": "42" } });
    expect(await uncopiedBodies(async () => head)(request)).toBe(head);
    const sized = new Response(streamOf([new Uint8Array(3)]), { status: 200, headers: { "content-length": "3" } });
    expect((await uncopiedBodies(async () => sized)(request)).headers.get("content-length")).toBe("3");
  });

  it("bytes an answer did not hand on, or only part of its buffer, are not handed on", () => {
    expect(isHandedOn(new Uint8Array(8))).toBe(false);
  });
});
