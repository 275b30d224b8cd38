// What the tests of `check --repair` expect of a repaired table (README, "check").
import { expect } from "vitest";
import { open, scan } from "lance-nd";
import { count } from "./counters.js";
import { rowsById } from "./plain-rows.js";
import { expectedRow } from "./rows.js";

/** The table opens, each row it holds is whole (helpers/rows.ts), and its ids are `expected`. */
export async function expectWhole(uri: string, expected: readonly string[]): Promise<void> {
  const table = await open(uri);
  const rows = await rowsById(table, { types: false });
  expect([...rows.keys()].sort()).toEqual([...expected].sort());
  for (const [id, copies] of rows) {
    expect(copies, id).toEqual([expectedRow(id)]);
  }
  expect((await scan(table).toArray()).length).toBe(expected.length);
  count("rowsVerified", rows.size);
}
