/** The bench's results: the tables it prints (times, MiB/s, ratios, targets) and the JSON it saves. */
import { CODECS, type Codec } from "./contestant.js";
import type { Profile, Stage } from "./profile.js";

const MiB = 1024 * 1024;

/** The figures of one contestant with one codec. */
export interface Result {
  contestant: string;
  codec: Codec;
  /** Best write, ms. */
  writeMs: number;
  /** Best full scan (every variable, `sst` summed), ms. */
  scanMs: number;
  /** Best read of one chunk by id, ms. */
  chunkMs: number;
  /** Best read of the `time` coordinate alone, ms. */
  timeMs: number;
  /** Best stats-filtered read (chunks whose max exceeds the threshold), ms. */
  hotMs: number;
  /** Bytes on disk after the write (without stats). */
  bytes: number;
}

/** The name of raw lancedb's reads of lance-nd's own table in the logs. */
export const SAME_TABLE = "raw lancedb on lance-nd's table";

/** Raw lancedb's reads of lance-nd's own table (same fragments, same encoding), in the same rounds. */
export interface SameTable {
  codec: Codec;
  scanMs: number;
  chunkMs: number;
  timeMs: number;
  /** lance-nd's table before and after `compact` (absent in runs saved before it was measured). */
  compacted?: Compacted;
}

/**
 * lance-nd's table merged by `compact` into the layout of raw lancedb's one
 * `createTable`: what the compaction cost, and the point and coordinate reads
 * again, against raw lancedb's on its own table in the same rounds.
 */
export interface Compacted {
  /** Fragments of lance-nd's table as written, and after `compact`. */
  fragmentsWritten: number;
  fragmentsCompacted: number;
  compactMs: number;
  chunkMs: number;
  timeMs: number;
  rawChunkMs: number;
  rawTimeMs: number;
}

/** Everything one run measured. */
export interface Report {
  date: string;
  command: string;
  /** `loadAverage`: the 1-minute load average at the start and at the end of the run (other work on the machine skews figures). */
  machine: { node: string; cpus: number; cpuModel: string; loadAverage: [number, number] };
  data: { sizeMiB: number; chunks: number; chunkShape: number[]; valueBytes: number; hotChunks: number };
  reps: number;
  /** The in-memory baselines: a copy of the values and the sum every reader does. */
  memory: { memcpyMs: number; sumMs: number };
  results: Result[];
  /** Absent in runs saved before it was measured. */
  sameTable?: SameTable[];
  profile: Partial<Record<Codec, Profile>>;
  targets: Target[];
  /** Peak RSS of the whole run (Linux VmHWM), bytes. */
  peakRssBytes?: number;
}

/** One target of the brief and whether this run met it. */
export interface Target {
  target: string;
  met: boolean;
  detail: string;
}

const BASELINES = ["raw lancedb", "zarrita"] as const;

/** Speed ratio of `ms` against `baseMs`: above 1 is faster than the baseline. */
function speedup(baseMs: number, ms: number): number {
  return baseMs / ms;
}

function find(report: Report, contestant: string, codec: Codec): Result | undefined {
  return report.results.find((r) => r.contestant === contestant && r.codec === codec);
}

/** The targets of the brief, checked against this run's figures. */

/** The columns of the results table, in the text and the Markdown report. */
const RESULT_COLUMNS = [
  "contestant",
  "codec",
  "write MiB/s",
  "scan MiB/s",
  "1 chunk ms",
  "time ms",
  "stats ms",
  "disk MiB",
  "values/disk",
];

/** One contestant's row of the results table (`rate` turns ms into MiB/s of the values). */
function resultCells(r: Result, rate: (ms: number) => string, valueBytes: number): string[] {
  return [
    r.contestant,
    r.codec,
    rate(r.writeMs),
    rate(r.scanMs),
    r.chunkMs.toFixed(1),
    r.timeMs.toFixed(1),
    r.hotMs.toFixed(1),
    mib(r.bytes),
    `${(valueBytes / r.bytes).toFixed(2)}x`,
  ];
}

/**
 * The targets against raw lancedb, on the codecs where both write the same
 * encoding (lance-nd's default is zstd 3, raw lancedb's is Lance's own):
 * lance-nd's write at least 1.3x one raw add of the same rows; its full
 * scan, one-chunk read and `time` scan at least raw lancedb's speed. Then
 * the targets against zarrita and the bytes on disk.
 */
export function checkTargets(report: Report): Target[] {
  const targets: Target[] = [];
  const nd = (codec: Codec) => find(report, "lance-nd", codec);
  const raw = (codec: Codec) => find(report, "raw lancedb", codec);
  const zarr = (codec: Codec) => find(report, "zarrita", codec);
  const measures = [
    ["write", (r: Result) => r.writeMs, 1.3],
    ["full scan", (r: Result) => r.scanMs, 1],
    ["one-chunk read", (r: Result) => r.chunkMs, 1],
    ["time coordinate scan", (r: Result) => r.timeMs, 1],
  ] as const;
  for (const codec of CODECS.filter((c) => c !== "default")) {
    const a = nd(codec);
    const b = raw(codec);
    if (a === undefined || b === undefined) continue;
    for (const [name, ms, bar] of measures) {
      const ratio = speedup(ms(b), ms(a));
      targets.push({
        target: `${name}: lance-nd at least ${fmtRatio(bar)} raw lancedb's speed (${codec})`,
        met: ratio >= bar,
        detail: `${fmtRatio(ratio)} (${ms(a).toFixed(1)} vs ${ms(b).toFixed(1)} ms)`,
      });
    }
  }
  for (const codec of CODECS) {
    const a = nd(codec);
    const z = zarr(codec);
    if (a === undefined || z === undefined) continue;
    for (const [name, ms] of measures.slice(0, 2)) {
      const ratio = speedup(ms(z), ms(a));
      targets.push({
        target: `${name}: lance-nd faster than zarrita (${codec})`,
        met: ratio > 1,
        detail: `${fmtRatio(ratio)} zarrita's speed (${ms(a).toFixed(1)} vs ${ms(z).toFixed(1)} ms)`,
      });
    }
    targets.push({
      target: `one-chunk read: lance-nd within 2x of zarrita (${codec})`,
      met: a.chunkMs <= 2 * z.chunkMs,
      detail: `${a.chunkMs.toFixed(1)} vs ${z.chunkMs.toFixed(1)} ms (${(a.chunkMs / z.chunkMs).toFixed(2)}x the time)`,
    });
  }
  const ndBest = Math.min(
    ...report.results.filter((r) => r.contestant === "lance-nd" && r.codec !== "default").map((r) => r.bytes),
  );
  const zarrBest = Math.min(...report.results.filter((r) => r.contestant === "zarrita").map((r) => r.bytes));
  if (Number.isFinite(ndBest) && Number.isFinite(zarrBest)) {
    targets.push({
      target: "bytes on disk: lance-nd with zstd no more than zarrita's best",
      met: ndBest <= zarrBest,
      detail: `${mib(ndBest)} vs ${mib(zarrBest)} MiB (${(ndBest / zarrBest).toFixed(3)}x)`,
    });
  }
  return targets;
}

/** The whole report as text: results, ratios, profile, targets. */
export function formatReport(report: Report): string {
  const { valueBytes } = report.data;
  const rate = (ms: number) => (valueBytes / MiB / (ms / 1000)).toFixed(0);
  const lines: string[] = [];
  lines.push(
    `${report.data.sizeMiB} MiB of Float32 sst (${report.data.chunks} chunks of [${report.data.chunkShape.join(", ")}]), best of ${report.reps}, ` +
      `${report.date}, node ${report.machine.node}, ${report.machine.cpus} x ${report.machine.cpuModel}, ` +
      `load average ${report.machine.loadAverage.map((l) => l.toFixed(1)).join(" -> ")}`,
    "",
  );
  const header = RESULT_COLUMNS;
  const rows: string[][] = [
    [
      "memory",
      "-",
      `${rate(report.memory.memcpyMs)} (copy)`,
      `${rate(report.memory.sumMs)} (sum)`,
      "-",
      "-",
      "-",
      "-",
      "-",
    ],
  ];
  for (const r of report.results) {
    rows.push(resultCells(r, rate, valueBytes));
  }
  lines.push(...table(header, rows), "");

  for (const base of BASELINES) {
    lines.push(`speed relative to ${base}, same codec (>1 = faster; disk: <1 = smaller)`);
    const ratioRows: string[][] = [];
    for (const r of report.results) {
      const b = find(report, base, r.codec);
      if (b === undefined || r.contestant === base) continue;
      ratioRows.push([
        r.contestant,
        r.codec,
        ...[
          b.writeMs / r.writeMs,
          b.scanMs / r.scanMs,
          b.chunkMs / r.chunkMs,
          b.timeMs / r.timeMs,
          b.hotMs / r.hotMs,
          r.bytes / b.bytes,
        ].map(fmtRatio),
      ]);
    }
    lines.push(...table(["contestant", "codec", "write", "scan", "1 chunk", "time", "stats", "disk"], ratioRows), "");
  }

  if (report.sameTable !== undefined && report.sameTable.length > 0) {
    lines.push(
      "lance-nd against raw lancedb reading lance-nd's own table (same fragments and encoding; >1 = lance-nd faster)",
    );
    const sameRows = report.sameTable.flatMap((t) => {
      const r = find(report, "lance-nd", t.codec);
      if (r === undefined) return [];
      return [
        [
          t.codec,
          `${t.scanMs.toFixed(1)} / ${fmtRatio(t.scanMs / r.scanMs)}`,
          `${t.chunkMs.toFixed(1)} / ${fmtRatio(t.chunkMs / r.chunkMs)}`,
          `${t.timeMs.toFixed(1)} / ${fmtRatio(t.timeMs / r.timeMs)}`,
        ],
      ];
    });
    lines.push(...table(["codec", "scan ms / ratio", "1 chunk ms / ratio", "time ms / ratio"], sameRows, 1), "");
    const compactedRows = report.sameTable.flatMap((t) => {
      const c = t.compacted;
      if (c === undefined) return [];
      return [
        [
          t.codec,
          `${c.fragmentsWritten} -> ${c.fragmentsCompacted}`,
          (c.compactMs / 1000).toFixed(1),
          `${c.chunkMs.toFixed(1)} vs ${c.rawChunkMs.toFixed(1)} / ${fmtRatio(c.rawChunkMs / c.chunkMs)}`,
          `${c.timeMs.toFixed(1)} vs ${c.rawTimeMs.toFixed(1)} / ${fmtRatio(c.rawTimeMs / c.timeMs)}`,
        ],
      ];
    });
    if (compactedRows.length > 0) {
      lines.push(
        "lance-nd's table after `compact`, against raw lancedb's own one-fragment table (>1 = lance-nd faster)",
      );
      lines.push(
        ...table(["codec", "fragments", "compact s", "1 chunk ms / ratio", "time ms / ratio"], compactedRows, 1),
        "",
      );
    }
  }

  lines.push("speed relative to memory (write: memcpy of the values; scan: summing them in memory)");
  lines.push(
    ...table(
      ["contestant", "codec", "write", "scan"],
      report.results.map((r) => [
        r.contestant,
        r.codec,
        fmtRatio(report.memory.memcpyMs / r.writeMs),
        fmtRatio(report.memory.sumMs / r.scanMs),
      ]),
    ),
    "",
  );

  for (const [codec, profile] of Object.entries(report.profile)) {
    const nd = find(report, "lance-nd", codec as Codec);
    if (nd === undefined || profile === undefined) continue;
    lines.push(
      `where lance-nd's time goes (${codec}; each stage timed alone, best of ${report.reps}; other = lance-nd's whole time less the stages, negative where lance-nd overlaps them)`,
    );
    const part = (stages: Stage[], total: number, what: string) => {
      const share = (ms: number) => `${((100 * ms) / total).toFixed(0)} %`;
      const other = total - stages.reduce((sum, s) => sum + s.ms, 0);
      return [
        ...stages.map((s) => [`${what}: ${s.stage}`, s.ms.toFixed(1), share(s.ms)]),
        [`${what}: other`, other.toFixed(1), share(other)],
        [`${what}: lance-nd in all`, total.toFixed(1), "100 %"],
      ];
    };
    lines.push(
      ...table(
        ["stage", "ms", "of lance-nd"],
        [
          ...part(profile.write, nd.writeMs, "write"),
          ...part(profile.scan, nd.scanMs, "scan"),
          ...part(profile.chunk, nd.chunkMs, "1 chunk"),
          ...(profile.time === undefined ? [] : part(profile.time, nd.timeMs, "time")),
        ],
        1,
      ),
      "",
    );
  }

  if (report.peakRssBytes !== undefined) lines.push(`peak RSS of the run: ${mib(report.peakRssBytes)} MiB`, "");
  lines.push("targets (against raw lancedb, then against zarrita)");
  for (const t of report.targets) lines.push(`  ${t.met ? "MET " : "MISS"}  ${t.target}: ${t.detail}`);
  return lines.join("\n");
}

function fmtRatio(x: number): string {
  return `${x.toFixed(2)}x`;
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1);
}

/** The first `left` columns left-aligned, the numbers right-aligned, two spaces between. */
function table(header: readonly string[], rows: readonly (readonly string[])[], left = 2): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `  ${cells
      .map((cell, c) => (c < left ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
      .trimEnd()}`;
  return [line(header), ...rows.map(line)];
}

/** The results and lance-nd's ratios as Markdown tables (for the root README's Performance section). */
export function formatMarkdown(report: Report): string {
  const { valueBytes } = report.data;
  const rate = (ms: number) => (valueBytes / MiB / (ms / 1000)).toFixed(0);
  const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const lines = [
    `${report.data.sizeMiB} MiB (${report.data.chunks} chunks), best of ${report.reps}, ${report.date.slice(0, 10)}, \`${report.command}\`, ` +
      `${report.machine.cpus} x ${report.machine.cpuModel}, load average ${report.machine.loadAverage.map((l) => l.toFixed(1)).join(" -> ")}`,
    "",
    row(RESULT_COLUMNS),
    row(["---", "---", "--:", "--:", "--:", "--:", "--:", "--:", "--:"]),
    row([
      "memory",
      "-",
      `${rate(report.memory.memcpyMs)} (copy)`,
      `${rate(report.memory.sumMs)} (sum)`,
      "",
      "",
      "",
      "",
      "",
    ]),
    ...report.results.map((r) => row(resultCells(r, rate, valueBytes))),
    "",
    "lance-nd's speed relative to each baseline, same codec (>1 = faster; disk: <1 = smaller):",
    "",
    row(["baseline", "codec", "write", "scan", "1 chunk", "time", "stats", "disk"]),
    row(["---", "---", "--:", "--:", "--:", "--:", "--:", "--:"]),
  ];
  for (const base of BASELINES) {
    for (const codec of CODECS) {
      const r = find(report, "lance-nd", codec);
      const b = find(report, base, codec);
      if (r === undefined || b === undefined) continue;
      lines.push(
        row([
          base,
          codec,
          ...[
            b.writeMs / r.writeMs,
            b.scanMs / r.scanMs,
            b.chunkMs / r.chunkMs,
            b.timeMs / r.timeMs,
            b.hotMs / r.hotMs,
            r.bytes / b.bytes,
          ].map(fmtRatio),
        ]),
      );
    }
  }
  return lines.join("\n");
}
