// The built `lance-nd serve` under a flood (CLI README, "serve", Bounds):
// one dataset of 12 rows of 8 MiB (a Float32 `v` placed by chunk_offset,
// generated one row at a time), 100 concurrent requests in a seeded order,
// every tenth an absurd chunk index: every request waits its turn and is
// answered (200 with the chunk's exact values; 404 for the absurd ones), the server
// answers after, and its peak resident memory (VmHWM) stays under 512 MiB
// while the answers total 720 MiB.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { CHUNK_OFFSET, attr } from "@lance-nd/nd-arrow";
import type { AttrInput } from "@lance-nd/nd-arrow";
import { write } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "@lance-nd/test-helpers";
import { MiB, bigRow, bigValue } from "./helpers/big-rows.js";
import { CLI, requireBuiltCli } from "./helpers/cli.js";

const ROWS = 12;
const ROW_BYTES = 8 * MiB;
const VALUES = ROW_BYTES / 4;
const REQUESTS = 100;

describe("lance-nd serve under 100 concurrent requests of 8 MiB chunks", () => {
  let dir: string;
  let child: ReturnType<typeof spawn>;
  let url: string;

  beforeAll(async () => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), "lance-nd-serve-flood-"));
    async function* rows() {
      for (let i = 0; i < ROWS; i++)
        yield bigRow(i, ROW_BYTES).withGlobalAttrs(
          new Map<string, AttrInput>([
            ["id", "big"],
            [CHUNK_OFFSET, attr.uint32([i * VALUES])],
          ]),
        );
    }
    const table = join(dir, "big.lance");
    await write(table, rows());
    child = spawn(process.execPath, [CLI, "serve", table, "--port", "0"], { stdio: ["ignore", "pipe", "ignore"] });
    url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  });

  afterAll(() => {
    child?.kill("SIGTERM");
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("each request is answered in turn with the exact chunk (absurd ones 404); the server lives, under 512 MiB", async () => {
    const random = seededRandom(20261202);
    const next = (n: number): number => Math.floor(random() * n);
    const requests = Array.from({ length: REQUESTS }, (_, n) => {
      if (n % 10 === 9) return { path: `big/v/${ROWS + next(1000)}`, chunk: undefined };
      const chunk = next(ROWS);
      return { path: `big/v/${chunk}`, chunk };
    });
    const answers = await Promise.all(
      requests.map(async ({ path, chunk }) => {
        const response = await fetch(`${url}${path}`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (response.status !== 200) return response.status;
        const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
        // Spot checks across the chunk: the first, the last and 64 values spread over it.
        const at = [0, VALUES - 1, ...Array.from({ length: 64 }, (_, k) => (k * 65_537) % VALUES)];
        expect(values.length, path).toBe(VALUES);
        for (const j of at) expect(values[j], `${path}[${j}]`).toBe(bigValue(chunk!, j));
        return 200;
      }),
    );
    for (const [n, status] of answers.entries()) {
      if (requests[n]!.chunk === undefined) expect(status, requests[n]!.path).toBe(404);
      else expect(status, requests[n]!.path).toBe(200);
    }
    expect((await fetch(`${url}big/.zmetadata`)).status).toBe(200);
    expect(child.exitCode).toBeNull();
    const peak = Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024;
    expect(peak).toBeLessThan(512);
  });
});
