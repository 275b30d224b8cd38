/**
 * `lance-nd import` runs with glibc's MALLOC_ARENA_MAX=2 (README, "Memory
 * of an import"). glibc gives each thread that allocates its own malloc
 * arena (up to 8 per core), and lancedb's writer threads free memory into
 * arenas that keep it: an import's peak RSS fell from 440-482 MiB to
 * 385-437 MiB with two arenas, at no cost in time (SDK-NOTES.md, "Write
 * memory"). glibc reads the variable when the process starts, and node
 * cannot replace its own process image, so the executable runs itself
 * again once, with the variable set, when the user has not set it.
 *
 * The process the caller holds is then the parent; the import runs in the
 * child, and must not outlive it (CLI README, "Interrupting an import"):
 * the child is started through `setpriv --pdeathsig KILL` when util-linux
 * has it (the kernel kills the child when the parent dies), and it also
 * kills itself when its IPC channel to the parent closes. The child runs in
 * a process group of its own, so a Ctrl+C at a terminal reaches it once,
 * forwarded by the parent.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The variable. */
export const ARENA_VARIABLE = "MALLOC_ARENA_MAX";
/** The value an import runs with when the user has not set the variable. */
export const ARENA_LIMIT = "2";
/** The commands that run with it: the ones that write a table from files. */
const COMMANDS = new Set(["import"]);
const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** True when `args` (the process's arguments after the script) run a command that wants the variable and it is unset (Linux only). */
export function wantsArenaLimit(args: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== "linux" || env[ARENA_VARIABLE] !== undefined) return false;
  const command = args.find((arg) => !arg.startsWith("-"));
  return command !== undefined && COMMANDS.has(command);
}

/**
 * Runs this executable again with the variable set, the same arguments,
 * node options and standard streams, as a child that dies with this
 * process; forwards SIGINT, SIGTERM and SIGHUP; ends this process as the
 * child ended (its exit code, or the same signal).
 */
export function runWithArenaLimit(): void {
  const node = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const setpriv = findOnPath("setpriv");
  const [command, ...args] = setpriv === undefined ? node : [setpriv, "--pdeathsig", "KILL", "--", ...node];
  const child = spawn(command!, args, {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    detached: true,
    env: { ...process.env, [ARENA_VARIABLE]: ARENA_LIMIT },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on("error", (err) => {
    process.stderr.write(`lance-nd: cannot start node again (${err.message})\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    for (const s of FORWARDED) process.off(s, forward);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}

/** In the child of {@link runWithArenaLimit}: dies (SIGKILL) as soon as the parent's channel closes. */
export function dieWithParent(): void {
  if (process.channel === undefined) return;
  process.channel.unref();
  process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const path = join(dir, name);
    if (dir !== "" && existsSync(path)) return path;
  }
  return undefined;
}
