// Version control on real tables (README.md, "Version control"): a dataset
// published as tag v1 reads back identical after main changes; a branch
// gets appends, a new variable and a widen while another process reads
// main, which never changes; cleanup after all of that keeps v1 and the
// branch readable.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { Float64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { append } from "../../src/write/write.js";
import { sstBatch, writeChunked } from "../dataset/fixture.js";
import { tempDir } from "../helpers/make-table.js";
import { mainReading } from "../helpers/main-reading.js";

/** Starts the main reader (test/helpers/main-reader-child.ts); resolves its stdout when it exits, `ready` after its first reading. */
function startReader(uri: string, stop: string): { ready: Promise<void>; output: Promise<string> } {
  const child = spawn(
    process.execPath,
    ["--conditions=@lance-nd/source", "--import", "tsx", "test/helpers/main-reader-child.ts", uri, stop],
    { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  let markReady = (): void => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes("ready\n")) markReady();
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const output = new Promise<string>((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`main reader exited ${String(code)}: ${err}`)),
    ),
  );
  return { ready: Promise.race([ready, output.then(() => undefined)]), output };
}
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = tempDir("version-integration");

/** The sst of the dataset of file `id`, read whole through `dataset`, as plain numbers (null kept). */
async function sstOf(
  table: Awaited<ReturnType<typeof open>>,
  id: string,
): Promise<{ shape: number[]; values: unknown[] }> {
  const ds = await dataset(table, { where: `__global_attrs__.id = '${id}'` });
  const sst = (await ds.read(["sst"])).get("sst")!;
  return { shape: [...sst.shape], values: Array.from(sst.values) as unknown[] };
}

describe("version control on real tables", () => {
  it("v1 reads back identical after main changes; a branch changes while another process reads main; cleanup keeps v1 and the branch", async () => {
    const uri = path.join(dir, "ocean.lance");
    const main = await writeChunked(uri, sstBatch("a.nc"), { time: 4, lat: 5 });
    await main.tag("v1");
    const published = await sstOf(await main.checkout("v1"), "a.nc");
    expect(published.shape).toEqual([12, 10, 8]);

    // main changes: another file, a wider sst, a deletion, a compaction
    await append(main, chunk(sstBatch("b.nc"), { time: 6 }));
    await widen(main, "sst", new Float64());
    await main.delete("__global_attrs__.id = 'a.nc'");
    await append(main, chunk(sstBatch("a.nc"), { time: 3 }), { casting: "safe" });
    await main.compact();
    expect(await sstOf(await (await open(uri)).checkout("v1"), "a.nc")).toEqual(published);

    // A branch of main changes while another process keeps reading main.
    const mainBefore = await mainReading(uri);
    const stop = path.join(dir, "stop");
    const reader = startReader(uri, stop);
    await reader.ready;
    const trial = await (await open(uri)).createBranch("trial");
    await append(trial, chunk(sstBatch("c.nc"), { time: 6 }), { casting: "safe" });
    const extra = new NdRecordBatch(
      { depth: NdArray.from(Int16Array.of(5, 10, 20), { dims: { level: 3 } }) },
      { id: "levels" },
    );
    await append(trial, [extra]);
    await widen(trial, "depth", new Float64());
    await trial.delete("__global_attrs__.id = 'b.nc'");
    fs.writeFileSync(stop, "");
    const stdout = await reader.output;
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("ready");
    expect(lines.at(-1)).toMatch(/^readings \d+$/);
    expect(lines.slice(1, -1)).toEqual([mainBefore]);
    expect(await mainReading(uri)).toBe(mainBefore);

    const onBranch = await open(uri, { branch: "trial" });
    expect(String(onBranch.ndSchema.fields.find((f) => f.name === "depth")!.type)).toMatch(/Float64/);
    expect(await onBranch.countRows("__global_attrs__.id = 'b.nc'")).toBe(0);
    const branchC = await sstOf(onBranch, "c.nc");

    // Cleanup of everything older than now, on main and on the branch.
    for (const t of [await open(uri), onBranch]) await t.cleanupOldVersions({ olderThan: 0, deleteUnverified: true });
    expect(await sstOf(await (await open(uri)).checkout("v1"), "a.nc")).toEqual(published);
    expect(await sstOf(await open(uri, { branch: "trial" }), "c.nc")).toEqual(branchC);
    expect(await mainReading(uri)).toBe(
      mainBefore.replace(/"version":\d+/, `"version":${await (await open(uri)).version()}`),
    );
  });
});
