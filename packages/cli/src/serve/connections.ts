/**
 * The connections `lance-nd serve` holds (CLI README, "serve"): a new
 * connection past {@link MAX_CONNECTIONS_PER_ADDRESS} from one address, or
 * past {@link MAX_CONNECTIONS} in all, is let in by closing the oldest
 * connection (of that address, for the first) that has sent bytes but has no
 * request in progress: one still sending its headers, or idle between
 * requests (one that has sent nothing yet may be a request on its way, and
 * waits for the headers timeout). So connections
 * that never finish their headers (slowloris) cannot lock out a client that
 * sends a whole request; only when {@link MAX_CONNECTIONS} all have a
 * request in progress is the new one closed.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Connections the server holds at once. */
const MAX_CONNECTIONS = 256;
/** Connections the server holds from one address. */
const MAX_CONNECTIONS_PER_ADDRESS = 64;

/** The open connections, oldest first, each with its requests in progress. */
export class Connections {
  readonly #open = new Map<Socket, { address: string; requests: number }>();

  /**
   * Takes `socket` in. Past {@link MAX_CONNECTIONS_PER_ADDRESS} from its
   * address, the oldest of that address's connections with no request in
   * progress is closed (none closed when all have one: requests wait their
   * turns, not their connections); past {@link MAX_CONNECTIONS} in all, the
   * oldest with no request in progress anywhere, or else the new one.
   */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? "";
    // A connection that has sent bytes but has no request in progress holds partial headers (or idles after
    // its answers): it may go. One that has sent nothing yet may be a client whose request is on its way.
    const idle = (entries: Iterable<[Socket, { address: string; requests: number }]>) => {
      for (const [open, connection] of entries) if (connection.requests === 0 && open.bytesRead > 0) return open;
      return undefined;
    };
    let victim: Socket | undefined;
    if (this.#open.size >= MAX_CONNECTIONS) {
      victim = idle(this.#open);
      if (victim === undefined) {
        socket.destroy();
        return;
      }
    } else {
      const fromAddress = [...this.#open].filter(([, c]) => c.address === address);
      if (fromAddress.length >= MAX_CONNECTIONS_PER_ADDRESS) victim = idle(fromAddress);
    }
    if (victim !== undefined) {
      this.#drop(victim);
      victim.destroy();
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
