/**
 * The viridis colour map (matplotlib's default, by Stéfan van der Walt and
 * Nathaniel Smith): perceptually uniform, readable in grey scale and by most
 * colour-blind readers.
 */

/** An RGB colour, 0..255 per channel. */
export type Rgb = readonly [number, number, number];

/**
 * Published samples of viridis: the 11 and 10 equally spaced colours that
 * viridisLite's `viridis(11)` and `viridis(10)` document, i.e. positions k/10
 * and k/9. The 256-entry table interpolates them linearly in RGB.
 */
const ANCHORS: readonly (readonly [number, string])[] = [
  [0 / 10, "440154"],
  [1 / 10, "482576"],
  [1 / 9, "482878"],
  [2 / 10, "414487"],
  [2 / 9, "3e4a89"],
  [3 / 10, "35608d"],
  [3 / 9, "31688e"],
  [4 / 10, "2a788e"],
  [4 / 9, "26828e"],
  [5 / 10, "21908c"],
  [5 / 9, "1f9e89"],
  [6 / 10, "22a884"],
  [6 / 9, "35b779"],
  [7 / 10, "43bf71"],
  [7 / 9, "6dcd59"],
  [8 / 10, "7ad151"],
  [8 / 9, "b4de2c"],
  [9 / 10, "bbdf27"],
  [10 / 10, "fde725"],
];

/** The colour of NaN and null cells: light grey, which viridis never uses. */
export const NAN_COLOR: Rgb = [211, 211, 211];

let table: Uint8Array | undefined;

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
  table ??= colormapTable(ANCHORS);
  return table;
}

/**
 * A 256-entry RGB table (768 bytes) interpolating `anchors` linearly in
 * RGB: positions 0..1 in ascending order, each with a colour as 6 hex digits.
 * The first anchor must be at 0 and the last at 1.
 *
 * @example
 * colormapTable([[0, "000000"], [1, "ffffff"]]); // a grey ramp
 */
export function colormapTable(anchorList: readonly (readonly [number, string])[]): Uint8Array {
  const out = new Uint8Array(256 * 3);
  const anchors = anchorList.map(([t, hex]) => [t, ...hexRgb(hex)] as const);
  let k = 0;
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    while (k < anchors.length - 2 && anchors[k + 1]![0] < t) k++;
    const [t0, r0, g0, b0] = anchors[k]!;
    const [t1, r1, g1, b1] = anchors[k + 1]!;
    const f = t1 === t0 ? 0 : Math.min(1, Math.max(0, (t - t0) / (t1 - t0)));
    out[3 * i] = Math.round(r0 + f * (r1 - r0));
    out[3 * i + 1] = Math.round(g0 + f * (g1 - g0));
    out[3 * i + 2] = Math.round(b0 + f * (b1 - b0));
  }
  return out;
}

function hexRgb(hex: string): Rgb {
  const n = Number.parseInt(hex, 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}
