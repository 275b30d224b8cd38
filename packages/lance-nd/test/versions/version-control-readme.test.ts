import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { write } from "../../src/write/write.js";
import { tempDir } from "../helpers/make-table.js";
import { readIds, sstRows } from "../helpers/write-rows.js";

// The README's version control example lives here between the markers, and runs as a test.
// --8<-- [start:version-control-example]
import { append, open, scan } from "lance-nd";

async function versionControlExample(uri: string, moreRows: NdRecordBatch[]): Promise<string[]> {
  const table = await open(uri);
  await table.tag("v1"); // cleanup keeps it; table.checkout("v1") reads it
  const trial = await table.createBranch("trial"); // a writable line of history: main does not change
  await append(trial, moreRows);
  const out = [`main ${await table.countRows()} rows, trial ${await trial.countRows()}`];

  // Merge back by hand, for a branch that only appended rows: its own rows onto main.
  const fork = (await table.branches()).find((b) => b.name === "trial")!.parentVersion;
  const added = await scan(trial).filter(`_row_created_at_version > ${fork}`).toArray();
  await append(table, added);
  out.push(`main ${await table.countRows()} rows, v1 ${await (await table.checkout("v1")).countRows()}`);
  return out;
}
// --8<-- [end:version-control-example]

const dir = tempDir("version-control-readme");

describe("README version control example", () => {
  it("runs: the branch's rows reach main by hand, v1 stays", async () => {
    const uri = join(dir, "arrays.lance");
    await write(uri, sstRows(3));
    expect(await versionControlExample(uri, sstRows(2, 3))).toEqual(["main 3 rows, trial 5", "main 5 rows, v1 3"]);
    expect(await readIds(await open(uri))).toEqual(["r0", "r1", "r2", "r3", "r4"]);
  });

  it("is the code block of the README", () => {
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const example =
      /--8<-- \[start:version-control-example\]\n([\s\S]*?)\/\/ --8<-- \[end:version-control-example\]/.exec(
        source,
      )![1]!;
    const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
