/**
 * The dim controls above the map: a slider for each dim the map does not
 * show (labelled with its coordinate value at the step), a line for each of
 * the map's two dims, and for every dim its coordinate's range.
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import { coordText, rangeText, unitsText } from "./coord-text.js";

/** The dims a variable's view shows, with the dataset's coordinates. */
export interface DimLayout {
  /** The dims on sliders, in the variable's order, each with its size. */
  sliders: readonly { name: string; size: number }[];
  /** The map's dims: its rows, then its columns. */
  map: readonly [rows: { name: string; size: number }, cols: { name: string; size: number }];
  coords: NdRecordBatch;
}

/**
 * Fills `box` with one control per dim of `layout` (sliders at step 0);
 * `onSlide(dim, index)` is called when a slider moves.
 */
export function showDimControls(
  box: HTMLElement,
  layout: DimLayout,
  onSlide: (dim: string, index: number) => void,
): void {
  const { coords } = layout;
  const sliders = layout.sliders.map(({ name, size }) => {
    const label = document.createElement("label");
    const text = document.createElement("span");
    const input = document.createElement("input");
    input.type = "range";
    input.id = `slider-${name}`;
    input.min = "0";
    input.max = String(size - 1);
    input.value = "0";
    const describe = (): void => {
      const i = Number(input.value);
      text.textContent = `${name} = ${coordText(coords, name, i)}${unitsText(coords, name)} [${i}/${size - 1}]`;
    };
    describe();
    input.addEventListener("input", () => {
      describe();
      onSlide(name, Number(input.value));
    });
    label.append(input, text);
    return control(name, size, coords, label);
  });
  const [rows, cols] = layout.map;
  const axes = [
    [rows, "the map's rows"],
    [cols, "the map's columns"],
  ] as const;
  const mapped = axes.map(([{ name, size }, place]) => {
    const text = document.createElement("span");
    text.textContent = `${name}: ${place}, ${size} steps`;
    return control(name, size, coords, text);
  });
  box.replaceChildren(...sliders, ...mapped);
}

/** One dim's control: `body`, then the dim's range. */
function control(dim: string, size: number, coords: NdRecordBatch, body: HTMLElement): HTMLElement {
  const div = document.createElement("div");
  div.className = "dim";
  div.dataset.dim = dim;
  const range = document.createElement("span");
  range.className = "range";
  range.textContent = rangeText(coords, dim, size);
  div.append(body, range);
  return div;
}
