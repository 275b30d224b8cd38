// The rows that crash and concurrency children write: each row's content
// follows from its id, so a reader can tell a complete row from a partial
// or wrong one without knowing who wrote it.
import { Float32, Int16 } from "apache-arrow";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { plainRow, type PlainRow } from "./plain-rows.js";

/**
 * The row of `id` = `<writer>-<k>`: `a` Float32 [x 3] = k*10 + j (with the
 * units attribute), `n` Int16 = k % 30000; a writer whose name starts with
 * "w" also adds `w_<writer>_<k>` Int16 [k % 100] (a new variable per row,
 * for widen tests). Every fifth row is `doomed` (for deleters).
 */
export function rowFor(id: string): NdRecordBatch {
  const dash = id.lastIndexOf("-");
  const writer = id.slice(0, dash);
  const k = Number(id.slice(dash + 1));
  const arrays: Record<string, NdArray> = {
    a: NdArray.from([k * 10, k * 10 + 1, k * 10 + 2], { dims: { x: 3 }, type: new Float32(), attrs: { units: "K" } }),
    n: NdArray.from([k % 30000], { dims: {}, type: new Int16(), attrs: { units: "1" } }),
  };
  if (writer.startsWith("w"))
    arrays[wideName(id)] = NdArray.from([k % 100], { dims: {}, type: new Int16(), attrs: { units: "1" } });
  return new NdRecordBatch(arrays, { id, writer, doomed: isDoomed(id) });
}

/** The extra variable of a widen writer's row. */
export function wideName(id: string): string {
  return `w_${id.replace("-", "_")}`;
}

/** True for the rows that deleters remove. */
export function isDoomed(id: string): boolean {
  return Number(id.slice(id.lastIndexOf("-") + 1)) % 5 === 0;
}

/** The expected row of `id` as plain data, without value types (a widen changes them). */
export function expectedRow(id: string): PlainRow {
  return plainRow(rowFor(id), { types: false });
}
