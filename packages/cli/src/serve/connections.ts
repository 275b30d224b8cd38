/**
 * The connections `lance-nd serve` holds (CLI README, "serve"): at most
 * {@link MAX_CONNECTIONS} in all and {@link MAX_CONNECTIONS_PER_ADDRESS}
 * from one address. A connection past either bound is let in by closing
 * the oldest connection (of that address, for the second) with no request
 * in progress: one still sending its headers, or idle between requests.
 * So connections that never finish their headers (slowloris) cannot lock
 * out a client that sends a whole request; when every connection has a
 * request in progress, the new one is closed.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Connections the server holds at once. */
export const MAX_CONNECTIONS = 256;
/** Connections the server holds from one address. */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;

/** The open connections, oldest first, each with its requests in progress. */
export class Connections {
  readonly #open = new Map<Socket, { address: string; requests: number }>();

  /** Takes `socket` in, closing the oldest connection without a request in progress when a bound is reached. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? "";
    const fromAddress = [...this.#open].filter(([, c]) => c.address === address);
    const crowd =
      fromAddress.length >= MAX_CONNECTIONS_PER_ADDRESS
        ? fromAddress
        : this.#open.size >= MAX_CONNECTIONS
          ? [...this.#open]
          : undefined;
    if (crowd !== undefined) {
      const idle = crowd.find(([, c]) => c.requests === 0)?.[0];
      if (idle === undefined) {
        socket.destroy();
        return;
      }
      this.#drop(idle);
      idle.destroy();
    }
    this.#open.set(socket, { address, requests: 0 });
    socket.once("close", () => this.#drop(socket));
  }

  /** Counts a request in progress on `socket` until `response` closes. */
  busy(socket: Socket, response: ServerResponse): void {
    const connection = this.#open.get(socket);
    if (connection === undefined) return;
    connection.requests++;
    response.once("close", () => {
      connection.requests--;
    });
  }

  #drop(socket: Socket): void {
    this.#open.delete(socket);
  }
}
