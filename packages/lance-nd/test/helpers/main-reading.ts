// What a reader of main sees, as one JSON string: version, schema and the
// values of every row (for the version control tests).
import { decodeRows } from "@lance-nd/format";
import { scanRows } from "../../src/lance/table-read.js";
import { open } from "../../src/table.js";

/** Main's latest version, its nd schema and each row's id and values, as JSON. */
export async function mainReading(uri: string): Promise<string> {
  const table = await open(uri);
  const rows: [unknown, Record<string, unknown[]>][] = [];
  for await (const rb of scanRows(table.lance)) {
    for (const row of decodeRows(rb)) {
      const values: Record<string, unknown[]> = {};
      for (const [name, array] of row.arrays()) values[name] = Array.from(array.values, plain);
      rows.push([row.globalAttr("id"), values]);
    }
  }
  rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return JSON.stringify({
    version: await table.version(),
    schema: table.ndSchema.fields.map((f) => `${f.name}: ${String(f.type)}`),
    rows,
  });
}

function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.getTime();
  return value;
}
