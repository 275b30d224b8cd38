/**
 * An HTTP server of one classic netCDF file that it makes as it sends it,
 * as a server that ignores `Range` does (200 and the whole file for any
 * GET): a header for `small(s)` and `big(row, col)`, then their values,
 * neither kept in memory nor on disk, so a file far bigger than an
 * import's memory bound (README "Memory bounds") costs the test nothing.
 * Its values follow {@link smallValue} and {@link bigValue}.
 */
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import { listenLocally } from "@lance-nd/test-helpers";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** The shape of the file a {@link startGeneratedNetcdfServer} sends. */
export interface GeneratedShape {
  /** `small(s)`'s length. */
  readonly small: number;
  /** `big(row, col)`'s rows and columns. */
  readonly rows: number;
  readonly cols: number;
}

/** A running {@link startGeneratedNetcdfServer}. */
export interface GeneratedNetcdfServer {
  /** The file's URL. */
  readonly url: string;
  /** The file's size in bytes. */
  readonly size: number;
  /** Stops the server (open connections too). */
  stop(): Promise<void>;
}

/** `small[k]`, an int. */
export const smallValue = (k: number): number => 1000 + 3 * k;

// big's values repeat every PERIOD: each row is a window of one precomputed run.
const PERIOD = 4096;

/** `big[row][col]`, a float a whole number below 4096. */
export const bigValue = (row: number, col: number): number => (row * 7 + col) % PERIOD;

const NC_DIMENSION = 0x0a;
const NC_VARIABLE = 0x0b;
const NC_INT = 4;
const NC_FLOAT = 5;

/** The words of the classic (CDF-1) header after its magic and record count: numbers (int32) and names. */
function headerWords(shape: GeneratedShape, smallBegin: number, bigBegin: number): Array<number | string> {
  const named = (text: string, ...rest: number[]) => [text.length, text, ...rest];
  return [
    ...[NC_DIMENSION, 3, ...named("s", shape.small), ...named("row", shape.rows), ...named("col", shape.cols)],
    ...[0, 0], // no global attributes
    ...[NC_VARIABLE, 2],
    ...named("small", 1, 0, 0, 0, NC_INT, shape.small * 4, smallBegin),
    ...named("big", 2, 1, 2, 0, 0, NC_FLOAT, shape.rows * shape.cols * 4, bigBegin),
  ];
}

/** The header's bytes: "CDF" 1, no records, then `words` (names padded to 4 bytes), big-endian. */
function encode(words: Array<number | string>): Uint8Array {
  const length = 8 + words.reduce<number>((n, w) => n + (typeof w === "number" ? 4 : Math.ceil(w.length / 4) * 4), 0);
  const bytes = new Uint8Array(length);
  const view = new DataView(bytes.buffer);
  bytes.set([0x43, 0x44, 0x46, 0x01]);
  let at = 8;
  for (const word of words) {
    if (typeof word === "number") view.setInt32(at, word);
    else bytes.set(new TextEncoder().encode(word), at);
    at += typeof word === "number" ? 4 : Math.ceil(word.length / 4) * 4;
  }
  return bytes;
}

/** The header and the bytes of `small`: `big` starts right after them. */
function header(shape: GeneratedShape): Uint8Array {
  const length = encode(headerWords(shape, 0, 0)).length;
  const bytes = new Uint8Array(length + shape.small * 4);
  bytes.set(encode(headerWords(shape, length, length + shape.small * 4)));
  const view = new DataView(bytes.buffer);
  for (let k = 0; k < shape.small; k++) view.setInt32(length + 4 * k, smallValue(k));
  return bytes;
}

/** The bytes of the file: the header and `small`, then `big` a row at a time (windows of one run, no copy). */
function* fileBytes(shape: GeneratedShape): Generator<Uint8Array> {
  yield header(shape);
  const run = new Uint8Array((PERIOD + shape.cols) * 4);
  const view = new DataView(run.buffer);
  for (let k = 0; k < PERIOD + shape.cols; k++) view.setFloat32(4 * k, k % PERIOD);
  for (let row = 0; row < shape.rows; row++) {
    const start = ((row * 7) % PERIOD) * 4;
    yield run.subarray(start, start + shape.cols * 4);
  }
}

/** Serves the generated file of `shape` at `/generated.nc` on 127.0.0.1 (a free port), ignoring `Range`. */
export async function startGeneratedNetcdfServer(shape: GeneratedShape): Promise<GeneratedNetcdfServer> {
  const size = header(shape).length + shape.rows * shape.cols * 4;
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== "/generated.nc") {
      res.writeHead(404, { "content-length": 0 }).end();
      return;
    }
    res.writeHead(200, { "content-length": size });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    // A client that drops the connection ends the body early: nothing more to do.
    pipeline(Readable.from(fileBytes(shape), { objectMode: false }), res).catch(() => {});
  };
  const server = await listenLocally(createServer(answer));
  return { url: `${server.origin}/generated.nc`, size, stop: server.stop };
}
