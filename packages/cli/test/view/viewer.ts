/**
 * Test helpers of `lance-nd view`: the BUILT command serving a table in a
 * child process, raw HTTP requests with any headers, and the demo table's
 * values read back with the lance-nd library.
 */
import { request } from "node:http";
import { assemble } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { open, scan } from "lance-nd";
import { startCliServer } from "../commands/cli-server.js";

/** A running `lance-nd view`. */
export interface Viewer {
  url: string;
  port: number;
  token: string;
  /** `127.0.0.1:<port>`, the Host the server answers. */
  host: string;
  /** The server's process id (for its memory in /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts `node dist/cli.js view <table> --port 0 --json ...extra` with the environment `env` and waits for its address. */
export async function startViewer(
  table: string,
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Viewer> {
  const { line, child, stop } = await startCliServer<{ url: string; port: number; token: string }>(
    "view",
    table,
    extra,
    env,
  );
  const { url, port, token } = line;
  return { url, port, token, host: `127.0.0.1:${port}`, pid: child.pid!, stop };
}

/** An HTTP answer. */
export interface Reply {
  status: number;
  type: string;
  body: Buffer;
  /** The body as JSON (errors: `{ error: { code, message } }`). */
  json(): { error?: { code: string; message: string } } & Record<string, unknown>;
}

/** `method path` on the viewer with exactly `headers` (Host defaults to the served one). */
export function send(
  viewer: Viewer,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: viewer.port, path, method, headers: { host: viewer.host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"]),
            body,
            json: () => JSON.parse(body.toString("utf8")),
          });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The rows of `table` that `where` selects, assembled into one dataset by the library. */
export async function readBack(table: string, where?: string): Promise<NdRecordBatch> {
  let query = scan(await open(table));
  if (where !== undefined) query = query.filter(where);
  const rows = await query.toArray();
  return rows.length === 1 ? rows[0]! : assemble(rows);
}
