/**
 * A process that a test file keeps for many synchronous calls: a server
 * that loads its heavy modules once (the command line's program, Python's
 * xarray) and answers one request at a time. Calls block this thread, as
 * `spawnSync` does, while a worker thread (kept-process-relay.mjs) talks to
 * the process; the process ends when this one does.
 *
 * The protocol: each request is one line of JSON on the process's stdin;
 * it answers each with one line of JSON on file descriptor 3 (its stdout
 * and stderr stay the test's).
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

/** What a kept process could not answer: it ended, or could not start. */
export interface KeptProcessFailure {
  error: string;
}

/** A long-lived child process called synchronously with JSON requests. */
export class KeptProcess<Request, Answer> {
  readonly #flag = new SharedArrayBuffer(4);
  readonly #port;

  /**
   * Starts nothing yet: `command args` starts on the first call (and again
   * after it ends), with the environment `env` (default this process's).
   */
  constructor(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
    const { port1, port2 } = new MessageChannel();
    const relay = new Worker(new URL("./kept-process-relay.mjs", import.meta.url), {
      workerData: { port: port2, flag: this.#flag, command, args: [...args], env: { ...env } },
      transferList: [port2],
    });
    relay.unref();
    port1.unref();
    this.#port = port1;
  }

  /** Sends `request` and waits for the answer, however long it takes. */
  call(request: Request): Answer | KeptProcessFailure {
    const flag = new Int32Array(this.#flag);
    Atomics.store(flag, 0, 0);
    this.#port.postMessage(request);
    Atomics.wait(flag, 0, 0);
    return (receiveMessageOnPort(this.#port)?.message ?? { error: "the kept process gave no answer" }) as
      | Answer
      | KeptProcessFailure;
  }
}
