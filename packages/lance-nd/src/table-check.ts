/**
 * The checks of the public calls that take an {@link NdTable}: that they got
 * one, and one that can change. Every NdTable marks itself here when it is
 * made, so the folders below table.ts check their input without importing
 * the class (README, "Source layout").
 */
import { LanceNdError } from "./errors.js";
import type { NdTable } from "./table.js";

/** Every NdTable made in this process (table.ts marks each one). */
const tables = new WeakSet<object>();

/** Marks `table` as an NdTable; called by NdTable's constructor, once per table. */
export function markTable(table: NdTable): void {
  tables.add(table);
}

/**
 * Checks that `table` is an {@link NdTable} (from `open`, `write` or
 * `checkout`), for the public calls that take one.
 *
 * @throws LanceNdError `InvalidInput` naming the call and what it got.
 */
export function checkTable(table: unknown, op: string): asserts table is NdTable {
  if (typeof table !== "object" || table === null || !tables.has(table)) {
    throw new LanceNdError(
      "InvalidInput",
      `${op}: expected an NdTable (from open, write or checkout), got ${describeKind(table)}`,
    );
  }
}

/**
 * Checks that `table` is an {@link NdTable} that can change (not a read-only
 * view from `checkout`).
 *
 * @throws LanceNdError `InvalidInput` for another value or a read-only view.
 */
export function checkWritable(table: unknown, op: string): asserts table is NdTable {
  checkTable(table, op);
  if (table.readOnly) {
    throw new LanceNdError(
      "InvalidInput",
      `${op}: the table is a read-only view of version ${String(table.lance.pinnedVersion)} (checkout); open the table to change it`,
      { uri: table.uri },
    );
  }
}

/** What kind of value `value` is, for "expected an NdTable, got ..." messages: `an object (Map)`, `string abc`, `null`. */
function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no class"})`;
  return `${typeof value} ${String(value)}`;
}
