import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";

// The README's reading example lives here between the markers, and runs as a test.
// --8<-- [start:read-example]
import { col, open, scan, stat } from "lance-nd";

async function readExample(uri: string): Promise<string[]> {
  const table = await open(uri);
  const out: string[] = [];
  for await (const batch of scan(table)
    .project(["sst"])
    .filterExpr(col("__global_attrs__.id").eq("a").and(stat("sst").max.gt(300)))
    .limit(10)) {
    out.push(`${String(batch.globalAttr("id"))}: sst ${batch.get("sst")?.shape.join(" x ")}`);
  }
  const recent = await scan(table).project([]).filter("__global_attrs__.year >= 2020").toArray();
  out.push(`${recent.length} rows since 2020`);
  return out;
}
// --8<-- [end:read-example]

const dir = tempDir("readme");

describe("README reading example", () => {
  it("runs and prints the row of id a", async () => {
    const row = (id: string, year: number, kelvin: number) =>
      new NdRecordBatch(
        { sst: NdArray.from(new Float32Array(6).fill(kelvin), { dims: { lat: 2, lon: 3 } }) },
        { id, year },
      );
    const uri = join(dir, "arrays.lance");
    await write(uri, [row("a", 2021, 305), row("b", 2019, 310), row("c", 2022, 280)], { stats: true });
    expect(await readExample(uri)).toEqual(["a: sst 2 x 3", "2 rows since 2020"]);
  });

  it("is the code block of the README", () => {
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const example = /--8<-- \[start:read-example\]\n([\s\S]*?)\/\/ --8<-- \[end:read-example\]/.exec(source)![1]!;
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
