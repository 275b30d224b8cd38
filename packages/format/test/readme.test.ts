import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The README example lives here between the markers, and runs as a test.
// --8<-- [start:example]
import { NdArray, NdRecordBatch, encodeSchema } from "@lance-nd/nd-arrow";
import { describeSchema, encodeRows, planWrite, tableSchema, validateTableSchema } from "@lance-nd/format";

function example(): string[] {
  const sst = NdArray.from(new Float32Array([280, 281, 282, 283]), { dims: { lat: 2, lon: 2 }, attrs: { units: "K" } });
  const first = new NdRecordBatch({ sst }, { id: "a" });

  // A new table: its schema comes from the nd schema of the first rows.
  const schema = tableSchema(encodeSchema([first]), {
    stats: true,
    columnDefaults: { compression: { codec: "zstd", level: 3 } },
  });
  const rows = encodeRows([first], schema); // the RecordBatch a writer appends
  describeSchema(schema); // a readable print of it, see FORMAT.md

  // A later write: Float64 values for sst, a new variable chl.
  const sst64 = NdArray.from(new Float64Array([290, 291]), { dims: { lat: 2 } });
  const chl = NdArray.from(new Float32Array([0.1, 0.2]), { dims: { lat: 2 } });
  const plan = planWrite(schema, encodeSchema([new NdRecordBatch({ sst: sst64, chl })]), { casting: "promote" });
  // plan.widenings: sst Float32 -> Float64 (and its stats column);
  // plan.newColumns: chl with __stats__:chl; plan.schema: the table after the write.

  const layout = validateTableSchema(plan.schema); // what a reader checks on open
  return [
    `${rows.numRows} row`,
    ...plan.widenings.map((w) => `widen ${w.column} ${w.from} -> ${w.to}`),
    ...plan.newColumns.map((c) => `add ${c.column.name} + ${c.stats?.name}`),
    `variables ${[...layout.arrays.keys()].join(", ")}`,
  ];
}
// --8<-- [end:example]

describe("README", () => {
  it("the example runs and prints what the README says", () => {
    expect(example()).toEqual([
      "1 row",
      "widen sst Float32 -> Float64",
      "add chl + __stats__:chl",
      "variables sst, chl",
    ]);
  });

  it("the README holds the example of this test, verbatim", () => {
    const source = readFileSync(import.meta.filename, "utf8");
    const snippet = source.slice(
      source.indexOf("// --8<-- [start:example]\n") + 27,
      source.indexOf("// --8<-- [end:example]"),
    );
    const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
    expect(readme).toContain(snippet.trim());
  });

  it("FORMAT.md prints the table schema that tableSchema makes for its example", () => {
    const sst = NdArray.from(new Float32Array(24), { dims: { time: 2, lat: 3, lon: 4 }, attrs: { units: "K" } });
    const lat = NdArray.from(new Float32Array(3), { dims: { lat: 3 } });
    const schema = tableSchema(encodeSchema([new NdRecordBatch({ sst, lat }, { id: "a" })]), {
      stats: true,
      columnDefaults: { compression: { codec: "zstd", level: 3 } },
    });
    const doc = readFileSync(join(import.meta.dirname, "..", "FORMAT.md"), "utf8");
    expect(doc).toContain(`\`\`\`text\n${describeSchema(schema)}\n\`\`\``);
  });
});
