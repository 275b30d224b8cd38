// Child processes of the crash and concurrency tests: a TypeScript script of
// reliability/children run with tsx, its argument one JSON object.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const running = new Set<ChildProcess>();

/** A started child: `ready` resolves when it printed "ready", `exited` with its exit code (null when killed). */
export interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  /** Resolves when the child printed the line `line` (rejects when it exits first). */
  printed(line: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `reliability/children/<script>.ts` with `args` (as JSON), from the repo root. */
export function startChild(script: string, args: unknown): Child {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@lance-nd/source",
      "--import",
      "tsx",
      join("reliability", "children", `${script}.ts`),
      JSON.stringify(args),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, RUST_BACKTRACE: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stderr });
    });
  });
  let out = "";
  const waiting = new Set<() => void>();
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (const check of waiting) check();
  });
  const printed = (line: string): Promise<void> => {
    const wait = new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!out.split("\n").slice(0, -1).includes(line)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
      void exited.then(({ code, stderr: err }) =>
        reject(new Error(`child ${script} exited (${code}) before it printed "${line}": ${err}`)),
      );
    });
    wait.catch(() => undefined);
    return wait;
  };
  const ready = printed("ready");
  return { process: child, ready, printed, exited };
}

/** Kills (SIGKILL) the children this process started that still run, e.g. after a test timed out. */
export function killChildren(): void {
  for (const child of running) child.kill("SIGKILL");
}

/** The complete lines (`<kind> <id>`) of a child's log file; a line cut by a kill is left out. */
export function logLines(text: string): [string, string][] {
  return text
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.includes(" "))
    .map((line) => line.split(" ", 2) as [string, string]);
}
