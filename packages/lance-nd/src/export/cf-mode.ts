/**
 * The CF mode a table was imported with (CLI README, "CF conventions"):
 * `raw` keeps the stored numbers, `mask` turns fill values into nulls,
 * `decode` also unpacks and turns times into timestamps. Exports encode the
 * values back with the same mode.
 */
import type { NdTable } from "../table.js";

/** The schema metadata key that records a table's CF mode. */
export const CF_MODE_KEY = "lance_nd:cf";

/** A table's CF mode. */
export type CfMode = "raw" | "mask" | "decode";

/** The CF mode of a table (tables imported before the modes existed hold raw values). */
export function tableCfMode(table: NdTable): CfMode {
  const mode = table.tableSchema.metadata.get(CF_MODE_KEY);
  return mode === "mask" || mode === "decode" ? mode : "raw";
}

/** The `@lance-nd/cf` encoding that gives a table's values back as stored: what its mode decoded, encoded. */
export function tableCfEncoding(table: NdTable): { mask: boolean; scale: boolean; times: boolean } {
  const mode = tableCfMode(table);
  return { mask: mode !== "raw", scale: mode === "decode", times: mode === "decode" };
}
