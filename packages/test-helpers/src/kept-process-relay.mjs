/**
 * The worker thread of kept-process.ts: it starts the kept process, writes
 * each request that arrives on `port` to its stdin as one line of JSON,
 * posts each line of JSON it answers on file descriptor 3 back on `port`,
 * and then wakes the waiting thread through `flag` (Atomics). A process
 * that ends while it works on a request is an answer too (an error naming
 * how it ended); the next request starts a new one.
 *
 * workerData: { port, flag (SharedArrayBuffer of one Int32), command, args, env }.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { workerData } from "node:worker_threads";

const { port, command, args, env } = workerData;
const flag = new Int32Array(workerData.flag);

/** The kept process, while it runs. */
let child;
/** The request it works on, when there is one. */
let working;

function answer(reply) {
  working = undefined;
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

function start() {
  const started = spawn(command, args, { env, stdio: ["pipe", "inherit", "inherit", "pipe"] });
  createInterface({ input: started.stdio[3] }).on("line", (line) => answer(JSON.parse(line)));
  // A process that could not start, or whose stdin closed as it ended: the exit (or this) answers.
  started.stdin.on("error", () => {});
  started.on("error", (err) => {
    if (child === started) child = undefined;
    if (working !== undefined) answer({ error: `${command} could not start: ${err.message}` });
  });
  started.on("exit", (code, signal) => {
    if (child === started) child = undefined;
    if (working !== undefined) answer({ error: `${command} ended (${signal ?? `exit ${code}`}) during a request` });
  });
  return started;
}

port.on("message", (request) => {
  working = request;
  child ??= start();
  child.stdin.write(`${JSON.stringify(request)}\n`);
});
