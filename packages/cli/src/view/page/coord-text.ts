/**
 * Coordinate values as the page shows them: a time as its date, a number
 * with its noise trimmed, the index where a dim has no coordinate.
 */
import { isCfTimeUnits } from "@lance-nd/cf";
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { timeFormat, timeTexts } from "../../output/time-text.js";

/**
 * The coordinate value of `dim` at `index` as text: a timestamp or CF time
 * (`units` "<unit> since <date>") as its date (and time of day when not
 * midnight), a number with its noise trimmed, the index when the dim has no
 * coordinate.
 */
export function coordText(coords: NdRecordBatch, dim: string, index: number): string {
  const coord = coords.get(dim);
  if (coord === undefined || index >= coord.size) return `${index}`;
  const format = timeFormat(coord);
  if (format !== undefined) {
    // A date of the coordinate's calendar (time-text.ts), without the time of day at midnight.
    return (timeTexts(coord.values.slice(index, index + 1), format)[0] ?? "null").replace(/[T ]00:00:00Z?$/, "");
  }
  const value = coord.values.get(index) as unknown;
  return typeof value === "number" ? String(Number(value.toPrecision(6))) : String(value);
}

/** True when `dim` has a time coordinate in `coords` (a timestamp or CF time): its values show as dates. */
export function isTimeCoord(coords: NdRecordBatch, dim: string): boolean {
  const coord = coords.get(dim);
  return coord !== undefined && coord.size > 0 && timeFormat(coord) !== undefined;
}

/** ` (<units>)` of `dim`'s coordinate, or "" when it has none or they are a CF time's (its values show as dates). */
export function unitsText(coords: NdRecordBatch, dim: string): string {
  const units = coords.get(dim)?.attr("units");
  return typeof units === "string" && !isCfTimeUnits(units) ? ` (${units})` : "";
}

/**
 * The range of `dim` (of `size` steps) as text: its coordinate's first and
 * last values ("2000-01-16 – 2000-12-16", "-89.5 – 89.5 (degrees_north)"), or
 * "index 0 – <size - 1>" when it has no coordinate.
 */
export function rangeText(coords: NdRecordBatch, dim: string, size: number): string {
  const ends = `${coordText(coords, dim, 0)} – ${coordText(coords, dim, size - 1)}`;
  return coords.get(dim) === undefined ? `index ${ends}` : `${ends}${unitsText(coords, dim)}`;
}
