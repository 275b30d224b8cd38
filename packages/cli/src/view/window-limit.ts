/**
 * The viewer's bound on a window (CLI README, "view"): an answer holds at
 * most {@link MAX_WINDOW_CELLS} cells. The page asks for a larger slice
 * with a step along its rows and columns (every step-th cell, as
 * `isel(dim=slice(None, None, step))` picks them), so the answer and the
 * server's memory stay bounded whatever the variable's size.
 */

/** The most cells one window answer holds: 1024 x 1024 (8 MiB of Float64). */
export const MAX_WINDOW_CELLS = 1024 * 1024;

/** The cells of a `rows` x `cols` slice taken every `step` cells along each. */
export function steppedCells(rows: number, cols: number, step: number): number {
  return Math.ceil(rows / step) * Math.ceil(cols / step);
}

/** The smallest step that brings a `rows` x `cols` slice within {@link MAX_WINDOW_CELLS} (1 when it fits). */
export function windowStep(rows: number, cols: number): number {
  let step = Math.max(1, Math.floor(Math.sqrt((rows * cols) / MAX_WINDOW_CELLS)));
  while (steppedCells(rows, cols, step) > MAX_WINDOW_CELLS) step++;
  return step;
}
