// Scan memory: a scan's peak RSS above its baseline stays under the bound of
// packages/lance-nd/README.md ("Memory bounds"):
//   SCAN_CONSTANT + SCAN_FACTOR x (readahead + 2) x max(batch bytes, largest row)
// for 1 MiB and 64 MiB rows, with and without read-ahead, and for limit(1).
// Each scan runs in a child process of its own (children/scan-memory-worker.ts)
// on tables generated here (helpers/big-rows.ts), so the RSS is the scan's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count } from "./helpers/counters.js";
import { MiB, writeBigTable } from "./helpers/big-rows.js";

/** Lance's runtime, the row id scan and V8's own growth: measured +30 to +140 MiB. */
const SCAN_CONSTANT = 192 * MiB;
/**
 * Bytes of RSS per byte of a take in flight: Lance's read buffers, the
 * decoded batch, the IPC copy the SDK hands to JavaScript, and freed memory
 * glibc's arenas keep (measured 2.5x to 7x).
 */
const SCAN_FACTOR = 8;

const dir = mkdtempSync(join(tmpdir(), "lance-nd-scan-memory-"));
const small = join(dir, "rows-1mib.lance");
const big = join(dir, "rows-64mib.lance");

beforeAll(async () => {
  await writeBigTable(small, MiB, 96);
  await writeBigTable(big, 64 * MiB, 3);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  name: string;
  uri: string;
  rowBytes: number;
  rows: number;
  batchSizeBytes?: number;
  readahead?: number;
  limit?: number;
}

const DEFAULT_BATCH = 8 * MiB;
const DEFAULT_READAHEAD = 2;

const cases: Case[] = [
  {
    name: "1 MiB rows, batchSizeBytes(1 MiB), batchReadahead(0)",
    uri: small,
    rowBytes: MiB,
    rows: 96,
    batchSizeBytes: MiB,
    readahead: 0,
  },
  { name: "1 MiB rows, default limits", uri: small, rowBytes: MiB, rows: 96 },
  {
    name: "64 MiB rows, batchSizeBytes(1 MiB), batchReadahead(0)",
    uri: big,
    rowBytes: 64 * MiB,
    rows: 3,
    batchSizeBytes: MiB,
    readahead: 0,
  },
  { name: "64 MiB rows, default limits", uri: big, rowBytes: 64 * MiB, rows: 3 },
  { name: "64 MiB rows, limit(1)", uri: big, rowBytes: 64 * MiB, rows: 1, limit: 1, readahead: 0 },
];

function bound(c: Case): number {
  const readahead = c.readahead ?? DEFAULT_READAHEAD;
  return SCAN_CONSTANT + SCAN_FACTOR * (readahead + 2) * Math.max(c.batchSizeBytes ?? DEFAULT_BATCH, c.rowBytes);
}

describe("scan memory follows its documented bound", () => {
  it.each(cases)("$name", (c) => {
    const { uri, batchSizeBytes, readahead, limit } = c;
    const child = spawnSync(
      process.execPath,
      [
        "--conditions=@lance-nd/source",
        "--import",
        "tsx",
        join("reliability", "children", "scan-memory-worker.ts"),
        JSON.stringify({ uri, batchSizeBytes, readahead, limit }),
      ],
      {
        cwd: join(import.meta.dirname, ".."),
        encoding: "utf8",
        env: { ...process.env, RUST_BACKTRACE: "0" },
      },
    );
    expect(child.status, child.stderr).toBe(0);
    const { rows, peakMiB } = JSON.parse(child.stdout.trim().split("\n").at(-1)!) as { rows: number; peakMiB: number };
    console.log(`scan memory: ${c.name}: +${peakMiB} MiB (bound ${bound(c) / MiB} MiB)`);
    expect(rows).toBe(c.rows);
    expect(peakMiB * MiB).toBeLessThanOrEqual(bound(c));
    count("rowsVerified", rows);
  });
});
