/**
 * The axes of a plot: a frame around the plot box, tick marks left of it
 * and below it, each with its label (a coordinate value, a date, a number),
 * spaced so that labels never run into each other.
 */
import type { Rgb } from "./colormap.js";
import { GLYPH_HEIGHT, drawText, textWidth } from "./font.js";

/** A rectangle of the image, in pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A tick: where it sits along the axis (pixels from the box's top or left edge) and its label. */
export interface Tick {
  at: number;
  label: string;
}

/** Font scale of tick labels. */
const TICK_SCALE = 1;
const TICK_LENGTH = 4;
const TICK_GAP = 3;
const LABEL_H = GLYPH_HEIGHT * TICK_SCALE;
const INK: Rgb = [34, 34, 34];
const FRAME: Rgb = [90, 90, 90];

/** The height the ticks below a plot take (tick, gap, label). */
export const BOTTOM_TICKS_HEIGHT = TICK_LENGTH + TICK_GAP + LABEL_H;

/** The width the ticks left of a plot take: the widest label, a gap and the tick. */
export function leftTicksWidth(ticks: readonly Tick[]): number {
  return ticks.length === 0
    ? 0
    : Math.max(...ticks.map((t) => textWidth(t.label, TICK_SCALE))) + TICK_GAP + TICK_LENGTH;
}

/**
 * Ticks at cells of an axis of `size` cells drawn `length` pixels long:
 * the first and last cell and evenly between, as many as fit with a
 * label's room between them (`label(i)` names cell `i`); `flip` counts
 * cells from the far end (a heatmap drawn with row 0 at the bottom).
 */
export function cellTicks(
  size: number,
  length: number,
  label: (index: number) => string,
  options: { vertical: boolean; flip?: boolean },
): Tick[] {
  if (size < 1) return [];
  const room = options.vertical
    ? 3 * LABEL_H
    : Math.max(textWidth(label(0), TICK_SCALE), textWidth(label(size - 1), TICK_SCALE)) + 12;
  const count = Math.min(size, Math.max(2, Math.min(8, Math.floor(length / room))));
  const indices = new Set(
    Array.from({ length: count }, (_, k) => (count === 1 ? 0 : Math.round((k * (size - 1)) / (count - 1)))),
  );
  return [...indices].map((index) => {
    const cell = options.flip ? size - 1 - index : index;
    return { at: Math.round(((cell + 0.5) * length) / size), label: label(index) };
  });
}

/** A 1-pixel rectangle outline just outside `box`. */
export function drawFrame(rgba: Uint8Array, imageW: number, box: Box): void {
  const { x, y, w, h } = { x: box.x - 1, y: box.y - 1, w: box.w + 2, h: box.h + 2 };
  for (let px = x; px < x + w; px++) {
    setPixel(rgba, imageW, px, y, FRAME);
    setPixel(rgba, imageW, px, y + h - 1, FRAME);
  }
  for (let py = y; py < y + h; py++) {
    setPixel(rgba, imageW, x, py, FRAME);
    setPixel(rgba, imageW, x + w - 1, py, FRAME);
  }
}

/** Tick marks left of `box` with their labels right-aligned before them, centred on each tick. */
export function drawLeftTicks(rgba: Uint8Array, imageW: number, box: Box, ticks: readonly Tick[]): void {
  for (const { at, label } of ticks) {
    const y = box.y + at;
    for (let k = 1; k <= TICK_LENGTH; k++) setPixel(rgba, imageW, box.x - 1 - k, y, FRAME);
    const x = box.x - 1 - TICK_LENGTH - TICK_GAP - textWidth(label, TICK_SCALE);
    drawText(rgba, imageW, label, x, y - Math.floor(LABEL_H / 2), TICK_SCALE, INK);
  }
}

/** Tick marks below `box` with their labels centred under them (kept inside the image). */
export function drawBottomTicks(rgba: Uint8Array, imageW: number, box: Box, ticks: readonly Tick[]): void {
  const y = box.y + box.h + 1;
  for (const { at, label } of ticks) {
    const x = box.x + at;
    for (let k = 0; k < TICK_LENGTH; k++) setPixel(rgba, imageW, x, y + k, FRAME);
    const w = textWidth(label, TICK_SCALE);
    const left = Math.max(0, Math.min(imageW - w, x - Math.floor(w / 2)));
    drawText(rgba, imageW, label, left, y + TICK_LENGTH + TICK_GAP, TICK_SCALE, INK);
  }
}

/** Sets one pixel of an RGBA image to `color` (opaque). */
export function setPixel(rgba: Uint8Array, imageW: number, x: number, y: number, color: Rgb): void {
  const o = 4 * (y * imageW + x);
  rgba[o] = color[0];
  rgba[o + 1] = color[1];
  rgba[o + 2] = color[2];
  rgba[o + 3] = 255;
}
