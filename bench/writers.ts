/**
 * Several processes appending to one table at once: 1, 2 and 4 writer
 * processes (bench/writer-child.ts), each with its own NdWriter, each
 * appending the same number of 1 MiB rows in adds of 8 MiB. Reports the
 * aggregate MiB/s, the versions the table gained per add, and that every row
 * arrived once.
 *
 *   npx --yes pnpm@12.21.0 bench --writers
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { open, scan, write } from "lance-nd";

/** Rows (1 MiB each) every writer appends. */
export const ROWS_PER_WRITER = 48;
/** Bytes per add of each writer. */
export const ADD_BYTES = 8 * 2 ** 20;
const WRITER_COUNTS = [1, 2, 4];

function runChild(uri: string, writer: string): Promise<{ commits: number; retries: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=@lance-nd/source",
        "--import",
        "tsx",
        path.join(import.meta.dirname, "writer-child.ts"),
        JSON.stringify({ uri, writer, rows: ROWS_PER_WRITER, addBytes: ADD_BYTES }),
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, LANCEDB_LOG: "error" },
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as { commits: number; retries: number })
        : reject(new Error(`writer ${writer} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

/** Runs the concurrent writers benchmark and prints its table. */
export async function benchWriters(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-bench-writers-"));
  const loadStart = os.loadavg()[0]!;
  const lines: string[] = [];
  try {
    for (const count of WRITER_COUNTS) {
      const uri = path.join(tmp, `w${count}.lance`);
      await write(uri, [
        new NdRecordBatch(
          { sst: NdArray.from(new Float32Array(4), { dims: { x: 4 } }) },
          { id: "seed", writer: "seed" },
        ),
      ]);
      const before = await (await open(uri)).version();
      const started = performance.now();
      const children = await Promise.all(Array.from({ length: count }, (_, w) => runChild(uri, `w${w}`)));
      const seconds = (performance.now() - started) / 1000;
      const table = await open(uri);
      const versions = (await table.version()) - before;
      const commits = children.reduce((n, c) => n + c.commits, 0);
      const retries = children.reduce((n, c) => n + c.retries, 0);
      const ids = new Set<string>();
      let rows = 0;
      for await (const row of scan(table).project([])) {
        ids.add(String(row.globalAttr("id")));
        rows++;
      }
      if (rows !== ids.size || rows !== count * ROWS_PER_WRITER + 1)
        throw new Error(`writers bench: ${rows} rows, ${ids.size} ids, expected ${count * ROWS_PER_WRITER + 1}`);
      const mib = count * ROWS_PER_WRITER;
      lines.push(
        `| ${count} | ${mib} | ${seconds.toFixed(1)} | ${(mib / seconds).toFixed(1)} | ${commits} | ${versions} | ${(versions / commits).toFixed(2)} | ${(retries / commits).toFixed(2)} | all ${rows} rows once |`,
      );
      console.log(`  ${count} writers: ${(mib / seconds).toFixed(1)} MiB/s`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    `\nconcurrent writers: processes each appending ${ROWS_PER_WRITER} rows of 1 MiB in adds of ${ADD_BYTES / 2 ** 20} MiB, load average ${loadStart.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    "| writers | MiB | time s | aggregate MiB/s | adds | versions | versions per add | retried conflicts per add | check |",
  );
  console.log("| --: | --: | --: | --: | --: | --: | --: | --: | --- |");
  for (const line of lines) console.log(line);
}
