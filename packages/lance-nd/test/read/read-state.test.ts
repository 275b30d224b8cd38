import * as path from "node:path";
import type { Data, RecordBatch } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, write } from "../../src/write/write.js";
import { readState } from "../../src/read/read-state.js";
import type { NdTable } from "../../src/table.js";
import { scanRows } from "../../src/lance/table-read.js";
import { tempDir } from "../helpers/make-table.js";

const dir = tempDir("read-state");

/** Rows of `variables` small arrays (4 random Float32 values each, one attribute). */
function wideRows(variables: number, rows: number): NdRecordBatch[] {
  return Array.from(
    { length: rows },
    (_, r) =>
      new NdRecordBatch(
        Object.fromEntries(
          Array.from({ length: variables }, (_, v) => [
            `v${v}`,
            NdArray.from(Float32Array.from({ length: 4 }, Math.random), { dims: { x: 4 }, attrs: { units: "K" } }),
          ]),
        ),
        { id: `r${r}` },
      ),
  );
}

/** The bytes of the table's rows in memory as Lance returns them, per row. */
async function memoryBytesPerRow(table: NdTable): Promise<number> {
  let bytes = 0;
  let rows = 0;
  const add = (data: Data): void => {
    for (const buffer of [data.values, data.valueOffsets, data.nullBitmap] as (ArrayBufferView | undefined)[])
      bytes += buffer?.byteLength ?? 0;
    for (const child of data.children) add(child);
  };
  for await (const batch of scanRows(table.lance) as AsyncGenerator<RecordBatch>) {
    for (const child of batch.data.children) add(child);
    rows += batch.numRows;
  }
  return bytes / rows;
}

describe("the bytes per row a read expects", () => {
  it("on tables of many small variables, close to the rows' bytes, not to the files' fixed bytes per column", async () => {
    // Each Lance file spends ~300 bytes on every leaf column whatever its
    // rows; counted in, the estimate was 2-7x the rows' bytes at 1-8 rows.
    for (const variables of [50, 400]) {
      for (const rows of [1, 8, 40]) {
        for (const fragments of rows === 8 ? [1, 3] : [1]) {
          const uri = path.join(dir, `v${variables}-r${rows}-f${fragments}.lance`);
          const table = await write(uri, wideRows(variables, rows), { stats: true });
          for (let f = 1; f < fragments; f++) await append(table, wideRows(variables, rows));
          const estimate = (await readState(table)).bytesPerRow;
          const memory = await memoryBytesPerRow(table);
          const where = `${variables} variables, ${rows} rows, ${fragments} fragments: ${estimate} vs ${memory}`;
          expect(estimate, where).toBeGreaterThan(memory / 2);
          expect(estimate, where).toBeLessThan(memory * 2);
        }
      }
    }
  });

  it("on tables of large arrays, at least the rows' values (the fixed bytes are a rounding error)", async () => {
    for (const fragments of [1, 4]) {
      const row = (i: number) =>
        new NdRecordBatch(
          { sst: NdArray.from(Float32Array.from({ length: 65_536 }, Math.random), { dims: { y: 256, x: 256 } }) },
          { id: `r${i}` },
        );
      const table = await write(path.join(dir, `big-f${fragments}.lance`), [row(0), row(1)], { stats: true });
      for (let f = 1; f < fragments; f++) await append(table, [row(2 * f), row(2 * f + 1)]);
      expect((await readState(table)).bytesPerRow).toBeGreaterThan(65_536 * 4 * 0.95);
    }
  });
});
