/**
 * The colour tables: viridis (matplotlib's default, by Stéfan van der Walt
 * and Nathaniel Smith), perceptually uniform, readable in grey scale and by
 * most colour-blind readers, and the others the viewer offers; each is
 * matplotlib's 256-entry table (colormap-data.ts, written by
 * scripts/colormaps.py).
 */
import { COLORMAP_HEX } from "./colormap-data.js";

/** An RGB colour, 0..255 per channel. */
export type Rgb = readonly [number, number, number];

/** The colour of NaN and null cells: light grey, which viridis never uses. */
export const NAN_COLOR: Rgb = [211, 211, 211];

const tables = new Map<string, Uint8Array>();

/**
 * The index (0..255) of a colour table for `value` on a linear scale from
 * `min` (0) to `max` (255), values outside clamped, 128 when min = max;
 * -1 for a NaN value or range (drawn in {@link NAN_COLOR}).
 *
 * @example
 * colorIndex(25, 0, 100); // 64
 */
export function colorIndex(value: number, min: number, max: number): number {
  const span = max - min;
  if (Number.isNaN(value) || Number.isNaN(span)) return -1;
  const t = span > 0 ? (value - min) / span : 0.5;
  return Math.round(255 * Math.min(1, Math.max(0, t)));
}

/**
 * The viridis table: 256 RGB triples (768 bytes), index 0 the lowest value
 * (dark purple), index 255 the highest (yellow).
 *
 * @example
 * const lut = viridis();
 * const [r, g, b] = lut.subarray(3 * 255, 3 * 256); // 253, 231, 37
 */
export function viridis(): Uint8Array {
  return colormapTable("viridis");
}

/**
 * The 256-entry RGB table (768 bytes, index 0 the lowest value) of the
 * colour map `name`: one of viridis, magma, inferno, plasma, cividis.
 *
 * @example
 * colormapTable("magma").subarray(0, 3); // 0, 0, 4
 */
export function colormapTable(name: string): Uint8Array {
  let table = tables.get(name);
  if (table === undefined) {
    const hex = COLORMAP_HEX[name];
    if (hex === undefined) throw new RangeError(`no colour map "${name}" (${Object.keys(COLORMAP_HEX).join(", ")})`);
    table = Uint8Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16));
    tables.set(name, table);
  }
  return table;
}
