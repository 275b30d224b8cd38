/**
 * Blosc chunks decoded on worker threads (bench/RESULTS.md, "Import of
 * part of a store elsewhere"). numcodecs' WebAssembly blosc copies each
 * compressed chunk into its memory one byte at a time, then decodes on the
 * thread that calls it: about 1 s of CPU for the chunks of a one-month
 * import, on the thread that also fetches them and hands rows to Lance.
 * Here one worker per core but one (blosc-worker.ts; at least one, at most
 * four: on 2 cores a second worker made the import slower) decodes the
 * chunks while that thread goes on. A chunk's bytes are moved to a worker
 * when they are a fetched body no one else holds (uncopied-bodies.ts),
 * else copied; its values come back moved, without a copy. Where the built
 * worker file is not beside this module (the sources run through tsx or
 * vitest), there is no pool.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { isHandedOn } from "./uncopied-bodies.js";

/** What the pool sends a worker: a chunk's compressed bytes, under the id of its request. */
export interface DecodeRequest {
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** What a worker answers: the chunk's values, or why it could not decode them. */
export type DecodeAnswer =
  | { readonly id: number; readonly values: Uint8Array }
  | { readonly id: number; readonly error: string };

/** The built worker, beside the built module. */
const WORKER_FILE = new URL("./blosc-worker.js", import.meta.url);

/** The most workers a pool starts. */
const MAX_WORKERS = 4;

/** Decodes blosc chunks on worker threads. */
export class BloscPool {
  readonly #file: URL;
  readonly #size: number;
  readonly #workers: PoolWorker[] = [];

  constructor(file: URL, size: number) {
    this.#file = file;
    this.#size = size;
  }

  /**
   * Starts a first worker, if none runs, so that it loads while the store's
   * coordinates are read: a worker takes about 0.2 s to load blosc.
   */
  warm(): void {
    if (this.#workers.length === 0) this.#start();
  }

  /** The values of the blosc chunk `bytes`, decoded by the least busy worker; rejects with the decoder's error. */
  decode(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.#workers.length < this.#size && this.#workers.every((w) => w.pending > 0)) this.#start();
    let idlest = this.#workers[0]!;
    for (const w of this.#workers) if (w.pending < idlest.pending) idlest = w;
    return idlest.decode(bytes);
  }

  #start(): void {
    const worker = new PoolWorker(this.#file, () => this.#workers.splice(this.#workers.indexOf(worker), 1));
    this.#workers.push(worker);
  }
}

let shared: BloscPool | null | undefined;

/** The process's pool, started on first use; `undefined` where the worker file is not built. */
export function bloscPool(): BloscPool | undefined {
  if (shared === undefined) {
    const size = Math.max(1, Math.min(MAX_WORKERS, availableParallelism() - 1));
    shared = existsSync(fileURLToPath(WORKER_FILE)) ? new BloscPool(WORKER_FILE, size) : null;
  }
  return shared ?? undefined;
}

/**
 * One worker and its requests in flight. It holds the process open only
 * while it has some; when it fails or exits, they reject and it leaves the
 * pool (`onGone`).
 */
class PoolWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(values: Uint8Array): void; reject(err: Error): void }>();
  #nextId = 0;
  #gone: Error | undefined;

  constructor(file: URL, onGone: () => void) {
    this.#worker = new Worker(file);
    this.#worker.on("message", (answer: DecodeAnswer) => {
      const request = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if ("values" in answer) request?.resolve(answer.values);
      else request?.reject(new Error(answer.error));
    });
    const leave = (err: Error) => {
      if (this.#gone !== undefined) return;
      this.#gone = err;
      onGone();
      for (const { reject } of this.#pending.values()) reject(err);
      this.#pending.clear();
    };
    this.#worker.on("error", leave);
    this.#worker.on("exit", (code) => leave(new Error(`the blosc worker exited (code ${code})`)));
    // After the listeners: adding a "message" listener holds the process open again.
    this.#worker.unref();
  }

  /** Requests in flight. */
  get pending(): number {
    return this.#pending.size;
  }

  decode(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.#gone !== undefined) return Promise.reject(this.#gone);
    const id = this.#nextId++;
    const sent = isHandedOn(bytes) ? bytes : bytes.slice();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ id, bytes: sent } satisfies DecodeRequest, [sent.buffer]);
    });
  }
}
