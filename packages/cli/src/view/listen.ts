/**
 * The life of the command line's local servers (`view`, `serve`): binding
 * to their address (the port they got, the `Host` values their guard
 * accepts, guard.ts, and the address their URL shows), and stopping on
 * Ctrl+C or a kill.
 */
import type { Server } from "node:http";
import { CliError } from "../errors.js";
import { servedHosts } from "./guard.js";

/** True for a wildcard address (0.0.0.0, ::), which accepts any `Host` header and relies on the token alone. */
export function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::";
}

/** A server listening: its port, the `host:port` values a request's `Host` may have, and the `host:port` of its URL. */
export interface Listening {
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
