/**
 * The life of the command line's local servers (`view`, `serve`): binding
 * to their address (the port they got, the `Host` values their guard
 * accepts, guard.ts, and the address their URL shows), closing, and
 * stopping on Ctrl+C or a kill.
 */
import type { Server } from "node:http";
import { CliError } from "../errors.js";
import { isWildcard, servedHosts } from "./guard.js";

/** A server listening: its port, the `host:port` values a request's `Host` may have, and the `host:port` of its URL. */
interface Listening {
  port: number;
  hosts: string[];
  urlHost: string;
}

/**
 * Starts `server` on `host` at `port` (0: a free one). Throws `CliError`
 * `InvalidArgument` naming the address when it cannot be bound (e.g. the
 * port is taken).
 */
export async function listen(server: Server, host: string, port: number): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (cause: NodeJS.ErrnoException) =>
      reject(
        new CliError("InvalidArgument", `cannot listen on ${host}:${port} (${cause.code ?? cause.message})`, { cause }),
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  const shown = isWildcard(host) ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return { port: bound, hosts: servedHosts(host, bound), urlHost: `${shown}:${bound}` };
}

/**
 * Stops `server` listening and closes its open connections (keep-alive
 * ones too); resolves once it is closed.
 */
export function close(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Resolves once SIGINT or SIGTERM has closed `server` (the command then ends
 * with 0). Call it before printing the address, so a signal sent right after
 * the address is seen is handled.
 */
export function closedBySignal(server: { close(): Promise<void> }): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void server.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
