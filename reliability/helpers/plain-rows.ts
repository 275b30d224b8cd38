// Rows as plain comparable values, for checking what a scan returns against
// what was written (a model, or a snapshot taken before a bad call).
import type { Attrs, NdRecordBatch } from "@lance-nd/nd-arrow";
import { scan, type NdTable } from "lance-nd";

/** One row as plain JSON-able data: arrays by name (type, dims, values with nulls, attrs) and global attributes. */
export interface PlainRow {
  arrays: Record<string, { type: string; dims: [string, number][]; values: unknown[]; attrs: Record<string, unknown> }>;
  globalAttrs: Record<string, unknown>;
}

/** A row as plain data; `types: false` leaves out the value types (to compare across a widen). */
export function plainRow(batch: NdRecordBatch, { types = true }: { types?: boolean } = {}): PlainRow {
  const arrays: PlainRow["arrays"] = {};
  for (const name of batch.names().sort()) {
    const array = batch.get(name)!;
    const values: unknown[] = [];
    for (let i = 0; i < array.values.length; i++)
      values.push(array.values.isValid(i) ? plain(array.values.get(i)) : null);
    arrays[name] = {
      type: types ? String(array.type) : "",
      dims: array.dims.map((d) => [d.name, d.size]),
      values,
      attrs: plainAttrs(array.attrs),
    };
  }
  return { arrays, globalAttrs: plainAttrs(batch.globalAttrs) };
}

function plainAttrs(attrs: Attrs): Record<string, unknown> {
  return Object.fromEntries([...attrs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, plain(v.toJS())]));
}

/** Numbers, bigints, strings, dates, typed arrays and arrays as JSON-able values (NaN and bigints as strings). */
export function plain(value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : value === 0 ? 0 : value;
  if (value instanceof Date) return value.toISOString();
  if (ArrayBuffer.isView(value) && !(value instanceof DataView))
    return Array.from(value as unknown as ArrayLike<unknown>, plain);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object" && typeof (value as { toArray?: unknown }).toArray === "function") {
    return Array.from((value as { toArray(): ArrayLike<unknown> }).toArray(), plain);
  }
  return value;
}

/** Every row of the table's current version, keyed by `__global_attrs__.id`, sorted by id. */
export async function rowsById(table: NdTable, options: { types?: boolean } = {}): Promise<Map<string, PlainRow[]>> {
  const byId = new Map<string, PlainRow[]>();
  for await (const batch of scan(table)) {
    const id = String(batch.globalAttr("id"));
    const rows = byId.get(id) ?? [];
    rows.push(plainRow(batch, options));
    byId.set(id, rows);
  }
  return new Map([...byId].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The table's version and all its rows (in scan order), to compare before and after a call. */
export async function snapshot(table: NdTable): Promise<{ version: number; rows: PlainRow[] }> {
  await table.refresh();
  const rows: PlainRow[] = [];
  for await (const batch of scan(table)) rows.push(plainRow(batch));
  return { version: await table.version(), rows };
}
