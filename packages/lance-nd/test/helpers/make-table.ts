// Test tables for the read half, made with the SDK layer directly (the
// format's table schema and rows, one Lance commit per call), so the read
// tests do not depend on the write path.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";
import { NdArray, NdRecordBatch, encodeSchema } from "@lance-nd/nd-arrow";
import { encodeRows, planWrite, tableSchema, type TableSchemaOptions } from "@lance-nd/format";
import { createTable } from "../../src/lance/table-open.js";
import { addNullFields, appendRows } from "../../src/lance/table-write.js";
import { readTableSchema } from "../../src/lance/table-read.js";
import { type NdTable, open } from "../../src/table.js";

/** A temp folder for this test file, removed after its tests. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lance-nd-${prefix}-`));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Creates a lance-nd table from nd record batches in one commit and opens it. */
export async function makeTable(
  uri: string,
  batches: readonly NdRecordBatch[],
  options: TableSchemaOptions = {},
): Promise<NdTable> {
  const schema = tableSchema(encodeSchema([...batches]), options);
  await createTable(uri, schema, encodeRows([...batches], schema, { stats: options.stats === true }));
  return open(uri);
}

/** Appends nd record batches in one commit, adding new variables and keys first (as all-null columns). */
export async function appendTo(table: NdTable, batches: readonly NdRecordBatch[]): Promise<void> {
  const before = await readTableSchema(table.lance);
  const plan = planWrite(before, encodeSchema([...batches]));
  await addNullFields(table.lance, plan.schema.fields);
  await appendRows(
    table.lance,
    encodeRows([...batches], plan.schema, { stats: plan.schema.metadata.get("lance_nd:stats") === "true" }),
  );
  await table.refresh();
}

/** Row `i` of the sample tables: `sst` (Float32 [time 2, x 3], values 10*i + j, attr units), `__global_attrs__.id = "r<i>"`, `n = i`. */
export function sampleRow(
  i: number,
  options: { withSst?: boolean; extra?: Record<string, NdArray> } = {},
): NdRecordBatch {
  const arrays: Record<string, NdArray> = { ...options.extra };
  if (options.withSst !== false) {
    arrays.sst = NdArray.from(
      Float32Array.from({ length: 6 }, (_, j) => 10 * i + j),
      { dims: { time: 2, x: 3 }, attrs: { units: "K" } },
    );
  }
  return new NdRecordBatch(arrays, { id: `r${i}`, n: i });
}

/** The `id` global attribute of each row. */
export function ids(rows: readonly NdRecordBatch[]): unknown[] {
  return rows.map((row) => row.globalAttr("id"));
}
