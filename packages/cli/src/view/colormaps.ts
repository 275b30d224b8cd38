/**
 * The perceptually uniform colour maps the viewer offers: matplotlib's
 * viridis (the default, from `plot/colormap.ts`), magma, inferno, plasma
 * (Stéfan van der Walt and Nathaniel Smith) and cividis (Jamie Nuñez et al.,
 * readable with colour-vision deficiency). Each is matplotlib's 256-entry
 * RGB table (plot/colormap.ts).
 */
import { colormapTable } from "../plot/colormap.js";

/** The names of the colour maps, the default first. */
export const COLORMAP_NAMES = ["viridis", "magma", "inferno", "plasma", "cividis"] as const;

/** One of {@link COLORMAP_NAMES}. */
export type ColormapName = (typeof COLORMAP_NAMES)[number];

/**
 * The 256-entry RGB table of colour map `name` (768 bytes, index 0 the
 * lowest value).
 *
 * @example
 * colormap("magma").subarray(0, 3); // 0, 0, 4
 */
export function colormap(name: ColormapName): Uint8Array {
  return colormapTable(name);
}

/** True when `name` is one of {@link COLORMAP_NAMES}. */
export function isColormapName(name: string): name is ColormapName {
  return (COLORMAP_NAMES as readonly string[]).includes(name);
}
