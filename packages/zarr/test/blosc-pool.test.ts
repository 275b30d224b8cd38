/**
 * The blosc pool's workers (src/blosc-pool.ts), driven by a stand-in
 * worker that answers each chunk's bytes reversed (the pool's protocol, not
 * blosc: the real worker runs in the built packages, where the CLI's tests
 * import blosc stores through it): every request gets its own answer, a
 * worker's error rejects that request alone, a worker that dies rejects
 * what it held and is replaced, the caller's bytes stay its own, and no
 * worker holds the process open when it has nothing to decode.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BloscPool } from "../src/blosc-pool.js";
import { tempDir } from "./python-oracle.js";

// Answers the bytes reversed; a chunk starting 0xEE is an error answer, 0xFF ends the worker.
const STAND_IN = `
import { parentPort } from "node:worker_threads";
parentPort.on("message", ({ id, bytes }) => {
  if (bytes[0] === 0xff) process.exit(3);
  if (bytes[0] === 0xee) return parentPort.postMessage({ id, error: "not a blosc frame" });
  const values = bytes.slice().reverse();
  setTimeout(() => parentPort.postMessage({ id, values }, [values.buffer]), bytes[0]);
});
`;

const HERE = dirname(fileURLToPath(import.meta.url));

let out: ReturnType<typeof tempDir>;
let worker: URL;

beforeAll(() => {
  out = tempDir("lance-nd-blosc-pool-");
  const file = join(out.dir, "stand-in-worker.mjs");
  writeFileSync(file, STAND_IN);
  worker = pathToFileURL(file);
});
afterAll(() => out.remove());

describe("BloscPool", () => {
  it("40 chunks in flight on 2 workers, answered out of order: each request gets its own chunk's answer", async () => {
    const pool = new BloscPool(worker, 2);
    const chunks = Array.from({ length: 40 }, (_, i) => new Uint8Array([(i * 7) % 13, i, 255 - i]));
    const answers = await Promise.all(chunks.map((c) => pool.decode(c)));
    answers.forEach((a, i) => {
      expect([...a]).toEqual([...chunks[i]!].reverse());
    });
  });

  it("a worker's error rejects that request alone, with the decoder's message", async () => {
    const pool = new BloscPool(worker, 1);
    const [bad, good] = await Promise.allSettled([
      pool.decode(new Uint8Array([0xee, 1])),
      pool.decode(new Uint8Array([0, 1, 2])),
    ]);
    expect(bad.status === "rejected" && (bad.reason as Error).message).toBe("not a blosc frame");
    expect(good.status === "fulfilled" && [...good.value]).toEqual([2, 1, 0]);
  });

  it("a worker that exits rejects the requests it held; the next request starts another worker", async () => {
    const pool = new BloscPool(worker, 1);
    await expect(pool.decode(new Uint8Array([0xff]))).rejects.toThrow("the blosc worker exited (code 3)");
    expect([...(await pool.decode(new Uint8Array([0, 5])))]).toEqual([5, 0]);
  });

  it("bytes the caller holds are copied to the worker, not moved: they stay readable", async () => {
    const pool = new BloscPool(worker, 1);
    const bytes = new Uint8Array([0, 1, 2, 3]);
    await pool.decode(bytes);
    expect([...bytes]).toEqual([0, 1, 2, 3]);
  });

  it("a process whose pool has a started worker and nothing to decode, before and after a decode, ends on its own", () => {
    const pool = pathToFileURL(join(HERE, "..", "src", "blosc-pool.ts")).href;
    const script = join(out.dir, "pool-exit.mts");
    writeFileSync(
      script,
      `import { BloscPool } from ${JSON.stringify(pool)};
const pool = new BloscPool(new URL(${JSON.stringify(worker.href)}), 1);
pool.warm();
if (process.argv[2] === "decode") console.log((await pool.decode(new Uint8Array([0, 7])))[0]);
`,
    );
    for (const mode of ["warm", "decode"]) {
      const run = spawnSync(process.execPath, ["--import", "tsx", script, mode], {
        cwd: join(HERE, "..", "..", ".."),
        encoding: "utf8",
      });
      expect(run.signal, `${mode}: ${run.stderr}`).toBeNull();
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(mode === "decode" ? "7" : "");
    }
  });
});
