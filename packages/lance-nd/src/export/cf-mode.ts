/**
 * The CF mode a table was imported with (CLI README, "CF conventions"):
 * `raw` keeps the stored numbers, `mask` turns `_FillValue` and
 * `missing_value` into nulls (as xarray does), `mask-range` also values
 * outside the valid range, `decode` masks as `mask` and also unpacks and
 * turns times into timestamps. Exports encode the values back with the same
 * mode.
 */
import type { NdTable } from "../table.js";

/** The schema metadata key that records a table's CF mode. */
export const CF_MODE_KEY = "lance_nd:cf";

/** A table's CF mode. */
export type CfMode = "raw" | "mask" | "mask-range" | "decode";

/** Every CF mode, the default (`mask`) first after `raw`. */
export const CF_MODES: readonly CfMode[] = ["raw", "mask", "mask-range", "decode"];

/** The CF mode of a table (tables imported before the modes existed hold raw values). */
export function tableCfMode(table: NdTable): CfMode {
  const mode = table.tableSchema.metadata.get(CF_MODE_KEY);
  return CF_MODES.includes(mode as CfMode) ? (mode as CfMode) : "raw";
}

/** What a CF mode decodes on import, and so encodes back on export: the `@lance-nd/cf` options of `mode`. */
export function cfModeOptions(mode: CfMode): { mask: boolean; scale: boolean; times: boolean } {
  return { mask: mode !== "raw", scale: mode === "decode", times: mode === "decode" };
}

/** The `@lance-nd/cf` encoding that gives a table's values back as stored: what its mode decoded, encoded. */
export function tableCfEncoding(table: NdTable): { mask: boolean; scale: boolean; times: boolean } {
  return cfModeOptions(tableCfMode(table));
}
