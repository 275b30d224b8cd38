/**
 * The perceptually uniform colour maps the viewer offers: matplotlib's
 * viridis (the default, from `plot/colormap.ts`), magma, inferno, plasma
 * (Stéfan van der Walt and Nathaniel Smith) and cividis (Jamie Nuñez et al.,
 * readable with colour-vision deficiency). Each is a 256-entry RGB table.
 */
import { colormapTable, viridis } from "../plot/colormap.js";

/** The names of the colour maps, the default first. */
export const COLORMAP_NAMES = ["viridis", "magma", "inferno", "plasma", "cividis"] as const;

/** One of {@link COLORMAP_NAMES}. */
export type ColormapName = (typeof COLORMAP_NAMES)[number];

/**
 * Published samples of each map: the 10 equally spaced colours (positions
 * k/9) that viridisLite documents for `magma(10)`, `inferno(10)`,
 * `plasma(10)` and `cividis(10)`.
 */
const SAMPLES: Record<Exclude<ColormapName, "viridis">, readonly string[]> = {
  magma: ["000004", "180f3e", "451077", "721f81", "9f2f7f", "cd4071", "f1605d", "fd9567", "fec98d", "fcfdbf"],
  inferno: ["000004", "1b0c42", "4b0c6b", "781c6d", "a52c60", "cf4446", "ed6925", "fb9a06", "f7d03c", "fcffa4"],
  plasma: ["0d0887", "47039f", "7301a8", "9c179e", "bd3786", "d8576b", "ed7953", "fa9e3b", "fdc926", "f0f921"],
  cividis: ["00204d", "00336f", "39486b", "575c6d", "707173", "8a8779", "a69d75", "c4b56c", "e4cf5b", "ffea46"],
};

const tables = new Map<ColormapName, Uint8Array>();

/**
 * The 256-entry RGB table of colour map `name` (768 bytes, index 0 the
 * lowest value).
 *
 * @example
 * colormap("magma").subarray(0, 3); // 0, 0, 4
 */
export function colormap(name: ColormapName): Uint8Array {
  if (name === "viridis") return viridis();
  let table = tables.get(name);
  if (table === undefined) {
    const samples = SAMPLES[name];
    table = colormapTable(samples.map((hex, k) => [k / (samples.length - 1), hex] as const));
    tables.set(name, table);
  }
  return table;
}

/** True when `name` is one of {@link COLORMAP_NAMES}. */
export function isColormapName(name: string): name is ColormapName {
  return (COLORMAP_NAMES as readonly string[]).includes(name);
}
