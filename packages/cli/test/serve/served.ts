/**
 * Test helpers of `lance-nd serve`: the BUILT command serving a table in a
 * child process (its address from the `--json` line), and its resident
 * memory from /proc. Requests go through the viewer's `send` (any headers).
 */
import { readFileSync } from "node:fs";
import { startCliServer } from "../commands/cli-server.js";
import type { Viewer } from "../view/viewer.js";

/** A running `lance-nd serve`: the viewer's handle (url, port, token, Host, pid, stop) and what it serves. */
export interface Served extends Viewer {
  /** The version the base URL serves. */
  version: number;
  /** The datasets, each with its group's URL. */
  datasets: { id: string; url: string }[];
  /** What the server has written to stderr once it holds a match of `pattern`. */
  stderrMatching(pattern: RegExp): Promise<string>;
  /** The exit code once it has exited (null while it runs). */
  exitCode(): number | null;
}

/** Starts `node dist/cli.js serve <table> --port 0 --json ...extra` (in `env`) and waits for its address line. */
export async function startServe(
  table: string,
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Served> {
  const { line, child, stderr, stop } = await startCliServer<
    Pick<Served, "url" | "port" | "token" | "version" | "datasets">
  >("serve", table, extra, env);
  return {
    ...line,
    host: `127.0.0.1:${line.port}`,
    pid: child.pid!,
    stderrMatching: (pattern) =>
      new Promise((resolve) => {
        const check = (): void => {
          if (!pattern.test(stderr())) return;
          child.off("stderr-grew", check);
          resolve(stderr());
        };
        child.on("stderr-grew", check);
        check();
      }),
    exitCode: () => child.exitCode,
    stop,
  };
}

/** The peak resident set size of process `pid` so far, in MiB (VmHWM in /proc/<pid>/status). */
export function peakResidentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (kib === null) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(kib[1]) / 1024;
}
