/**
 * A test's HTTP server on the loopback interface: listening at a free port
 * of 127.0.0.1, and stopped with every connection it holds ended, so that
 * a client kept waiting (a body held back, a keep-alive socket) cannot
 * keep the test's process alive.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A server {@link listenLocally} started. */
export interface LocalServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Ends every connection, then closes the server. */
  stop(): Promise<void>;
}

/** Starts `server` listening on 127.0.0.1 at a free port. */
export async function listenLocally(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
