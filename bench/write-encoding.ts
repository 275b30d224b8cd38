// Write speed and bytes on disk of the library's write() by column encoding
// and by adds in flight, on the bench's ocean data (bench/ocean-data.ts:
// 1 MiB sst chunks with coordinates and attributes). Each setting writes a
// fresh table in this process; best of REPS. Also prints the versions and
// fragments the write took, and a raw fs.writeFileSync of the same bytes as
// the baseline measured in the same run.
// Run: node --conditions=@lance-nd/source --import tsx bench/write-encoding.ts
// (MIB=256 by default; REPS=2; PARALLELISM="1,4"; ENCODINGS="zstd 3,none" to pick rows)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { write, type ColumnOptions } from "lance-nd";
import { ndBatches } from "./lance-nd.js";
import { folderBytes } from "./measure.js";
import { oceanData } from "./ocean-data.js";

const MiB = 1024 * 1024;
const mib = Number(process.env.MIB ?? "256");
const reps = Number(process.env.REPS ?? "2");
const parallelisms = (process.env.PARALLELISM ?? "1,4").split(",").map(Number);
// Lance's own default (no encoding keys) is no longer reachable through write(),
// which stores zstd 3 unless told otherwise; packages/lance-nd/README.md,
// "Default encoding", has its figures from the run that chose.
const encodings: Record<string, ColumnOptions> = {
  none: { compression: "none" },
  "zstd 3": { compression: { codec: "zstd", level: 3 } },
  "bss + zstd 3": { compression: { codec: "zstd", level: 3 }, bss: "on" },
  lz4: { compression: "lz4" },
};

const data = oceanData(mib);
const batches = ndBatches(data);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-write-encoding-"));
let n = 0;

const rawSeconds = best(() => {
  const file = path.join(dir, `raw-${n++}.bin`);
  const start = performance.now();
  fs.writeFileSync(file, data.sst);
  const seconds = (performance.now() - start) / 1000;
  fs.rmSync(file);
  return Promise.resolve({ seconds });
});
const raw = (await rawSeconds).seconds;
console.log(
  `ocean data: ${data.chunks} chunks, ${(data.valueBytes / MiB).toFixed(0)} MiB of sst; fs.writeFileSync ${(data.valueBytes / MiB / raw).toFixed(0)} MiB/s`,
);
console.log("| encoding | adds in flight | MiB/s | x writeFileSync | MiB on disk | versions | fragments |");
console.log("|---|--:|--:|--:|--:|--:|--:|");
const picked = process.env.ENCODINGS?.split(",");
for (const [name, columnDefaults] of Object.entries(encodings).filter(
  ([name]) => picked === undefined || picked.includes(name),
)) {
  for (const writeParallelism of parallelisms) {
    const result = await best(async () => {
      const table = path.join(dir, `t${n++}`, "ocean.lance");
      const start = performance.now();
      const written = await write(table, batches, { writeParallelism, columnDefaults });
      const seconds = (performance.now() - start) / 1000;
      const all = await written.versions();
      const fragments = Number(all.at(-1)!.metadata.total_fragments ?? NaN);
      const out = { seconds, bytes: folderBytes(path.dirname(table)), versions: all.length, fragments };
      fs.rmSync(path.dirname(table), { recursive: true, force: true });
      return out;
    });
    const speed = data.valueBytes / MiB / result.seconds;
    console.log(
      `| ${name} | ${writeParallelism} | ${speed.toFixed(0)} | ${(raw / result.seconds).toFixed(3)} | ${(result.bytes / MiB).toFixed(1)} | ${result.versions} | ${result.fragments} |`,
    );
  }
}
fs.rmSync(dir, { recursive: true, force: true });

async function best<T extends { seconds: number }>(run: () => Promise<T>): Promise<T> {
  let kept: T | undefined;
  for (let i = 0; i < reps; i++) {
    const result = await run();
    if (kept === undefined || result.seconds < kept.seconds) kept = result;
  }
  return kept!;
}
