/**
 * A command of the BUILT command line that serves a table (`view`,
 * `serve`), run in a child process: started with `--port 0 --json`, its
 * first stdout line (the address) parsed, its stderr kept, stopped with
 * SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { CLI } from "./harness.js";

/** A running serving command: the line it printed first, its process, its stderr so far, and `stop`. */
export interface CliServer<Line> {
  /** The `--json` line the command printed first, parsed. */
  line: Line;
  /** The child process; it emits `stderr-grew` each time its stderr grows. */
  child: ChildProcess;
  /** What the command has written to stderr so far. */
  stderr(): string;
  /** Ends the command (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `node dist/cli.js <command> <table> --port 0 --json ...extra` in
 * `env` and waits for its first line; rejects with its stderr when it exits
 * before printing one.
 */
export async function startCliServer<Line>(
  command: "serve" | "view",
  table: string,
  extra: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CliServer<Line>> {
  const child = spawn(process.execPath, [CLI, command, table, "--port", "0", "--json", ...extra], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    child.emit("stderr-grew");
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`lance-nd ${command} exited with ${code}: ${stderr}`)));
  });
  return {
    line: JSON.parse(first) as Line,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
