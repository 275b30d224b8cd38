/**
 * A worker thread of the blosc pool (blosc-pool.ts): decodes each blosc
 * chunk it is sent with numcodecs' WebAssembly blosc, the codec zarrita
 * registers, and sends the values back transferred, or the decoder's error
 * message. Built next to blosc-pool.js, where the pool looks for it.
 */
import { parentPort } from "node:worker_threads";
import Blosc from "numcodecs/blosc";
import type { DecodeAnswer, DecodeRequest } from "./blosc-pool.js";

// A blosc frame describes itself (README "Reading"): decoding needs none of the array's blosc settings.
const codec = Blosc.fromConfig({ id: "blosc" });
const port = parentPort!;

port.on("message", async ({ id, bytes }: DecodeRequest) => {
  try {
    const decoded = await codec.decode(bytes);
    const own = decoded.byteOffset === 0 && decoded.byteLength === decoded.buffer.byteLength;
    const values = own ? decoded : decoded.slice();
    port.postMessage({ id, values } satisfies DecodeAnswer, [values.buffer]);
  } catch (err) {
    port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies DecodeAnswer);
  }
});
