/**
 * The built command line kept loaded for one test file: a node process that
 * imports dist/run.js (the program as a function, `run(argv, io)`) once and
 * runs it for each request, in the request's folder and environment, one
 * at a time (@lance-nd/test-helpers `KeptProcess`: a line of JSON on stdin,
 * the answer as one on file descriptor 3). It answers with the exit code
 * and what the run wrote: to the `io` it was given and, while it ran, to
 * process.stdout and process.stderr (node's own warnings, say).
 *
 * What only a process of its own shows (lancedb's Rust logger on file
 * descriptor 2, signals, memory, the executable's start) is tested by
 * starting dist/cli.js itself (harness.ts `cliProcess`).
 *
 * Usage: node program-server.mjs <file URL of dist/run.js>
 */
import { Buffer } from "node:buffer";
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";

const { run } = await import(process.argv[2]);

/** A sink that keeps what is written to it. */
function collector() {
  const chunks = [];
  return {
    chunks,
    write(chunk, encoding, done) {
      chunks.push(
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8")
          : Buffer.from(chunk),
      );
      (typeof encoding === "function" ? encoding : done)?.();
      return true;
    },
  };
}

/** Replaces this process's environment by `env`, with dist/cli.js's default log level for lancedb (which reads it when a command first loads it). */
function useEnvironment(env) {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  process.env.LANCEDB_LOG ??= "error";
}

/** Runs the program once with `request.args` in `request.cwd`; resolves to the answer for the parent. */
async function runOnce(request) {
  useEnvironment(request.env);
  process.chdir(request.cwd);
  const stdout = collector();
  const stderr = collector();
  const streams = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = stdout.write;
  process.stderr.write = stderr.write;
  try {
    const code = await run(request.args, { stdout, stderr });
    return {
      code,
      stdout: Buffer.concat(stdout.chunks).toString("base64"),
      stderr: Buffer.concat(stderr.chunks).toString("utf8"),
    };
  } catch (err) {
    return { error: `lance-nd ${request.args.join(" ")} threw: ${err?.stack ?? err}` };
  } finally {
    process.stdout.write = streams.stdout;
    process.stderr.write = streams.stderr;
  }
}

const answers = createWriteStream("", { fd: 3 });
for await (const line of createInterface({ input: process.stdin })) {
  answers.write(`${JSON.stringify(await runOnce(JSON.parse(line)))}\n`);
}
