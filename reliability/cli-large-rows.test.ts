// `scan --json` / `--ndjson` / `--arrow` of one 128 MiB row (generated here,
// never committed): the built command line streams it (V8 cannot hold it as
// one string) and its peak RSS stays under the scan bound for one row in
// flight (packages/lance-nd/README.md, "Memory bounds"). The output is
// checked as it arrives: its size, its first and last values, and for
// `--arrow` the decoded row.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "./helpers/cli.js";
import { count } from "./helpers/counters.js";
import { MiB, bigValue, writeBigTable } from "./helpers/big-rows.js";

const ROW_BYTES = 128 * MiB;
const VALUES = ROW_BYTES / 4;
/** The scan bound with one take in flight and the row the printer holds: 192 MiB + 8 x 2 x the row. */
const BOUND = 192 * MiB + 8 * 2 * ROW_BYTES;

const dir = mkdtempSync(join(tmpdir(), "lance-nd-large-rows-"));
const table = join(dir, "row.lance");

beforeAll(async () => {
  requireBuiltCli();
  await writeBigTable(table, ROW_BYTES, 1);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  bytes: number;
  newlines: number;
  head: string;
  tail: string;
  peak: number;
  stderr: string;
  whole?: Buffer;
}

/** Runs the built CLI with the peak RSS preload; keeps only counts, the head and the tail of stdout (or all of it when `keep`). */
function run(args: string[], keep = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", join(import.meta.dirname, "helpers", "peak-rss.cjs"), CLI, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let bytes = 0;
    let newlines = 0;
    let head = "";
    let tail = "";
    let stderr = "";
    const kept: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) newlines++;
      if (head.length < 4096) head += chunk.subarray(0, 4096).toString("latin1");
      tail = (tail + chunk.subarray(Math.max(0, chunk.length - 4096)).toString("latin1")).slice(-4096);
      if (keep) kept.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const peak = Number(/peak-rss-kib (\d+)/.exec(stderr)?.[1] ?? NaN) * 1024;
      resolve({ code, bytes, newlines, head, tail, peak, stderr, ...(keep ? { whole: Buffer.concat(kept) } : {}) });
    });
  });
}

describe("scan prints a 128 MiB row with bounded memory", () => {
  let baseline = 0;
  beforeAll(async () => {
    const empty = await run(["scan", table, "--json", "--limit", "0"]);
    expect(empty.code, empty.stderr).toBe(0);
    baseline = empty.peak;
  });

  it("--json: one pretty JSON array, a value per line", async () => {
    const out = await run(["scan", table, "--json"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.head).toMatch(
      /^\[\n {2}\{\n {4}"globalAttrs": \{\n {6}"id": "r0"\n {4}\},\n {4}"arrays": \{\n {6}"v": \{\n {8}"type": "Float32",/,
    );
    expect(out.head).toContain(`"values": [\n          ${bigValue(0, 0)},\n          ${bigValue(0, 1)},`);
    expect(out.tail.endsWith(`${bigValue(0, VALUES - 1)}\n        ]\n      }\n    }\n  }\n]\n`)).toBe(true);
    expect(out.newlines - VALUES).toBeGreaterThan(10);
    expect(out.newlines - VALUES).toBeLessThan(30);
    expect(out.peak - baseline, `peak RSS ${out.peak / MiB} MiB, baseline ${baseline / MiB} MiB`).toBeLessThanOrEqual(
      BOUND,
    );
    console.log(
      `scan --json, one 128 MiB row: ${(out.bytes / MiB).toFixed(0)} MiB of JSON, peak RSS +${((out.peak - baseline) / MiB).toFixed(0)} MiB`,
    );
    count("rowsVerified");
  });

  it("--ndjson: one line, with every value", async () => {
    const out = await run(["scan", table, "--ndjson"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.newlines).toBe(1);
    expect(out.head).toMatch(
      /^\{"globalAttrs":\{"id":"r0"\},"arrays":\{"v":\{"type":"Float32","dims":\[\{"name":"x","size":33554432\}\],"attrs":\{\},"values":\[0,0\.5,1,/,
    );
    expect(out.tail.endsWith(`,${bigValue(0, VALUES - 1)}]}}}\n`)).toBe(true);
    expect(out.peak - baseline).toBeLessThanOrEqual(BOUND);
    console.log(
      `scan --ndjson, one 128 MiB row: ${(out.bytes / MiB).toFixed(0)} MiB, peak RSS +${((out.peak - baseline) / MiB).toFixed(0)} MiB`,
    );
    count("rowsVerified");
  });

  it("--arrow: an IPC stream whose row reads back", async () => {
    const out = await run(["scan", table, "--arrow"], true);
    expect(out.code, out.stderr).toBe(0);
    const rows = tableFromIPC(out.whole!);
    expect(rows.numRows).toBe(1);
    const values = rows.getChild("v")!.get(0)!.values;
    expect(values.length).toBe(VALUES);
    expect([values.get(0), values.get(VALUES - 1)]).toEqual([bigValue(0, 0), bigValue(0, VALUES - 1)]);
    expect(out.peak - baseline).toBeLessThanOrEqual(BOUND);
    console.log(`scan --arrow, one 128 MiB row: peak RSS +${((out.peak - baseline) / MiB).toFixed(0)} MiB`);
    count("rowsVerified");
  });
});
