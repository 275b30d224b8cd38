/** The page's calls to its server: JSON, and Arrow IPC decoded with nd-arrow. */
import { tableFromIPC } from "apache-arrow";
import { decode } from "@lance-nd/nd-arrow";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { TOKEN_HEADER } from "../guard-header.js";
import { TOKEN_META } from "../page-html.js";

/** An error the server answered with (`{ error: { code, message } }`). */
class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const token = document.querySelector<HTMLMetaElement>(`meta[name="${TOKEN_META}"]`)?.content ?? "";

/** Query parameters; undefined ones are left out. */
export type Params = Record<string, string | number | undefined>;

async function call(route: string, params: Params): Promise<Response> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const response = await fetch(`/api/${route}?${query}`, { headers: { [TOKEN_HEADER]: token } });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    throw new ApiError(
      response.status,
      body.error?.code ?? "Unknown",
      body.error?.message ?? `HTTP ${response.status}`,
    );
  }
  return response;
}

/** `GET /api/<route>` as JSON. */
export async function getJson<T>(route: string, params: Params = {}): Promise<T> {
  return (await (await call(route, params)).json()) as T;
}

/** `GET /api/<route>` as the one nd row of its Arrow IPC answer. */
export async function getBatch(route: string, params: Params = {}): Promise<NdRecordBatch> {
  const bytes = new Uint8Array(await (await call(route, params)).arrayBuffer());
  const batches = tableFromIPC(bytes).batches;
  const rows = batches.flatMap((rb) => decode(rb));
  if (rows.length !== 1) throw new ApiError(200, "Unexpected", `expected one nd row, got ${rows.length}`);
  return rows[0]!;
}
