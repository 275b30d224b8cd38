/**
 * What a slider step reads: the viewer's server (started in this process so
 * the Lance SDK's row takes can be counted) answers HTTP window requests on
 * the chunked demo table by taking exactly the rows that hold the slice,
 * and opening a dataset takes one row, not the dataset.
 */
import { dirname, join } from "node:path";
import { request } from "node:http";
import { open } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startViewServer } from "../../src/view/server.js";
import type { ViewServer } from "../../src/view/server.js";
import { cli, CLI, ensureBuilt, tempDir } from "../commands/harness.js";

let server: ViewServer;
/** Row ids passed to the SDK's `takeRowIds` since the last reset. */
const taken: bigint[] = [];

beforeAll(async () => {
  ensureBuilt();
  const dir = tempDir();
  expect(cli(["demo", "--dir", dir]).code).toBe(0);
  const demo = join(dir, "ocean.lance");
  // Every table handle of the SDK is of one class: count the row ids any of them takes.
  const sdkTable = Object.getPrototypeOf((await open(demo)).lance.sdk) as {
    takeRowIds(ids: readonly (bigint | number)[]): unknown;
  };
  const original = sdkTable.takeRowIds;
  vi.spyOn(sdkTable, "takeRowIds").mockImplementation(function (this: unknown, ids) {
    taken.push(...ids.map(BigInt));
    return original.call(this, ids);
  });
  server = await startViewServer({ uri: demo, host: "127.0.0.1", port: 0, assetsDir: join(dirname(CLI), "view") });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
});

/** `GET /api/<route>?<query>` with the token; the status, and the row ids it took. */
async function get(route: string, query: string): Promise<{ status: number; rowIds: bigint[] }> {
  taken.length = 0;
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, path: `/api/${route}?token=${server.token}&${query}` },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
  return { status, rowIds: [...new Set(taken)] };
}

describe("view: rows a request reads on the chunked demo (9 rows: time blocks of 4 x latitude bands of 30)", () => {
  it("opening the dataset takes one row (its attributes), not the dataset's 9", async () => {
    const opened = await get("dataset", "");
    expect(opened.status).toBe(200);
    expect(opened.rowIds).toHaveLength(1);
  });

  it("each step of the time slider takes the 3 rows of its time block, one per latitude band", async () => {
    const blocks = new Map<number, string>();
    for (let time = 0; time < 12; time++) {
      const step = await get("window", `variable=sst&isel=time%3D${time}`);
      expect(step.status).toBe(200);
      expect(step.rowIds, `time=${time}`).toHaveLength(3);
      const ids = step.rowIds.sort().join(",");
      const block = Math.floor(time / 4);
      expect(blocks.get(block) ?? ids, `time=${time} reads the rows of time ${4 * block}..${4 * block + 3}`).toBe(ids);
      blocks.set(block, ids);
    }
    expect(new Set(blocks.values()).size).toBe(3); // three blocks, three different sets of rows
  });

  it("a latitude step on a time x lon window takes the 3 rows of its band; a lon step on time x lat takes all 9", async () => {
    for (const lat of [0, 29, 30, 89])
      expect((await get("window", `variable=sst&isel=lat%3D${lat}`)).rowIds, `lat=${lat}`).toHaveLength(3);
    expect((await get("window", "variable=sst&isel=lon%3D100")).rowIds).toHaveLength(9);
  });
});
