/**
 * The variable view: the heatmap of a 2-D window, the sliders of the other
 * dims (labelled with their coordinate values), the colour bar and the
 * value under the pointer. Each slider step fetches one window.
 */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { DatasetSummary, DatasetVariable } from "../catalog.js";
import { colormap } from "../colormaps.js";
import type { ColormapName } from "../colormaps.js";
import { getBatch } from "./client.js";
import { coordText } from "./coord-text.js";
import { showDimControls } from "./dim-controls.js";
import { windowStep } from "../window-limit.js";
import { HeatmapView } from "./heatmap-view.js";
import type { Grid } from "./heatmap-view.js";

/** What the view shows: a variable of a dataset, at a table version. */
export interface Selection {
  version: number;
  dataset: DatasetSummary;
  variable: DatasetVariable;
  /** The dataset's coordinate variables. */
  coords: NdRecordBatch;
}

/** What the heatmap shows: a window of a variable. */
interface Shown {
  variable: string;
  /** The variable's units ("" without). */
  units: string;
  /** The slider dims' steps of the window. */
  isel: ReadonlyMap<string, number>;
  coords: NdRecordBatch;
  /** The map's dims. */
  rows: string;
  cols: string;
  grid: Grid;
  /** The window's cells are every step-th cell of the slice. */
  step: number;
}

/** A variable's dims of size > 1, in its order (dims of size 1 are taken at 0). */
function freeDims(dataset: DatasetSummary, variable: DatasetVariable): string[] {
  const size = (name: string): number => dataset.dims.find((d) => d.name === name)?.size ?? 1;
  return variable.dims.filter((d) => size(d) > 1);
}

/** True when the variable can be drawn: at least two dims of size > 1. */
export function drawable(dataset: DatasetSummary, variable: DatasetVariable): boolean {
  return freeDims(dataset, variable).length >= 2;
}

/** True when the variable has exactly one dim of size > 1: `lance-nd plot` draws it as a line. */
export function lineLike(dataset: DatasetSummary, variable: DatasetVariable): boolean {
  return freeDims(dataset, variable).length === 1;
}

/** The heatmap, its sliders, colour bar and pointer readout. */
export class VariableView {
  readonly #heatmap: HeatmapView;
  #colormap: ColormapName = "viridis";
  #selection: Selection | undefined;
  #isel = new Map<string, number>();
  /** What the heatmap shows, for the readout: the variable, its units and where its window is. */
  #shown: Shown | undefined;
  /** Bumped when the selection changes: an answer for an older selection is dropped. */
  #generation = 0;
  /** One window request at a time; a slider that moves meanwhile asks again when it is done. */
  #loading = false;
  #again = false;

  constructor() {
    this.#heatmap = new HeatmapView(document.getElementById("heatmap") as HTMLCanvasElement, colormap(this.#colormap));
    this.#heatmap.onPointer = (cell) => this.#readout(cell);
    // The map shrinks to the page's width: the colour bar and its labels follow its height.
    new ResizeObserver(() => this.#fitColorbar()).observe(document.getElementById("heatmap")!);
    document.getElementById("reset-zoom")!.addEventListener("click", () => this.#heatmap.resetZoom());
  }

  /** Shows `selection`: the last two dims of size > 1 on the map, sliders for the others at 0. */
  async show(selection: Selection): Promise<void> {
    this.#selection = selection;
    this.#generation++;
    const sized = freeDims(selection.dataset, selection.variable).map((name) => ({
      name,
      size: selection.dataset.dims.find((d) => d.name === name)!.size,
    }));
    const sliders = sized.slice(0, -2);
    this.#isel = new Map(sliders.map((d) => [d.name, 0]));
    const [rows, cols] = sized.slice(-2) as [(typeof sized)[number], (typeof sized)[number]];
    showDimControls(
      document.getElementById("sliders")!,
      { sliders, map: [rows, cols], coords: selection.coords },
      (dim, i) => {
        this.#isel.set(dim, i);
        void this.#load();
      },
    );
    await this.#load();
  }

  /** Changes the colour map. */
  setColormap(name: ColormapName): void {
    this.#colormap = name;
    this.#heatmap.setColormap(colormap(name));
    this.#drawColorbar();
  }

  async #load(): Promise<void> {
    if (this.#loading) {
      this.#again = true;
      return;
    }
    this.#loading = true;
    try {
      await this.#loadOnce();
    } finally {
      this.#loading = false;
    }
    if (this.#again) {
      this.#again = false;
      await this.#load();
    }
  }

  /** Fetches and draws the window of the current selection and slider positions. */
  async #loadOnce(): Promise<void> {
    const selection = this.#selection!;
    const generation = this.#generation;
    const status = document.getElementById("status")!;
    const errorBox = document.getElementById("view-error")!;
    const isel = [...this.#isel].map(([d, i]) => `${d}=${i}`).join(",");
    // A slice past the server's window limit comes every step-th cell (window-limit.ts).
    const size = (name: string): number => selection.dataset.dims.find((d) => d.name === name)?.size ?? 1;
    const [rowDim, colDim] = freeDims(selection.dataset, selection.variable).slice(-2) as [string, string];
    const step = windowStep(size(rowDim), size(colDim));
    const started = performance.now();
    status.textContent = "loading…";
    try {
      const batch = await getBatch("window", {
        version: selection.version,
        ...(selection.dataset.id === null ? {} : { dataset: selection.dataset.id }),
        variable: selection.variable.name,
        isel,
        ...(step === 1 ? {} : { step: String(step) }),
      });
      if (generation !== this.#generation) return; // the selection changed meanwhile
      const array = batch.get(selection.variable.name)!;
      const [rows, cols] = array.dims;
      const values = array.values.toArray() as Float64Array;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < values.length; i++) {
        const v = values[i]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      const grid: Grid = {
        values,
        rows: rows!.size,
        cols: cols!.size,
        rowZeroAtBottom: this.#ascending(rows!.name),
        min,
        max,
      };
      const units = array.attr("units");
      this.#shown = {
        variable: selection.variable.name,
        units: typeof units === "string" ? units : "",
        isel: new Map(this.#isel),
        coords: selection.coords,
        rows: rows!.name,
        cols: cols!.name,
        grid,
        step,
      };
      this.#heatmap.show(grid);
      this.#drawColorbar();
      errorBox.textContent = "";
      const every = step === 1 ? "" : `, every ${step}th cell`;
      status.textContent = `${selection.variable.name}(${rows!.name}, ${cols!.name})${every} in ${Math.round(performance.now() - started)} ms`;
      const canvas = document.getElementById("heatmap")!;
      canvas.dataset.isel = isel;
      canvas.dataset.min = String(min);
      canvas.dataset.max = String(max);
    } catch (err) {
      if (generation !== this.#generation) return;
      status.textContent = "";
      errorBox.textContent = err instanceof Error ? err.message : String(err);
    }
  }

  /** True when `dim` has a numeric coordinate whose first value is below its last (latitude: north up). */
  #ascending(dim: string): boolean {
    const coord = this.#selection!.coords.get(dim);
    if (coord === undefined || coord.size < 2) return false;
    return Number(coord.values.get(0)) < Number(coord.values.get(coord.size - 1));
  }

  #drawColorbar(): void {
    const shown = this.#shown;
    if (shown === undefined) return;
    const canvas = document.getElementById("colorbar") as HTMLCanvasElement;
    canvas.height = (document.getElementById("heatmap") as HTMLCanvasElement).height;
    this.#fitColorbar();
    const context = canvas.getContext("2d")!;
    const lut = colormap(this.#colormap);
    for (let y = 0; y < canvas.height; y++) {
      const k = Math.round((255 * (canvas.height - 1 - y)) / Math.max(1, canvas.height - 1));
      context.fillStyle = `rgb(${lut[3 * k]},${lut[3 * k + 1]},${lut[3 * k + 2]})`;
      context.fillRect(0, y, canvas.width, 1);
    }
    const { min, max } = shown.grid;
    const label = (v: number): string => (Number.isFinite(v) ? String(Number(v.toPrecision(4))) : "no data");
    document.getElementById("colorbar-labels")!.replaceChildren(
      ...[`${label(max)} ${shown.units}`, label((min + max) / 2), label(min)].map((text) => {
        const div = document.createElement("div");
        div.textContent = text;
        return div;
      }),
    );
  }

  /** The colour bar and its labels as tall on the page as the map. */
  #fitColorbar(): void {
    const height = `${document.getElementById("heatmap")!.clientHeight}px`;
    document.getElementById("colorbar")!.style.height = height;
    document.getElementById("colorbar-labels")!.style.height = height;
  }

  /** The readout: the value of the shown variable in `cell` of its window, with its units and coordinates. */
  #readout(cell: { row: number; col: number } | undefined): void {
    const box = document.getElementById("readout")!;
    const shown = this.#shown;
    if (cell === undefined || shown === undefined) {
      box.textContent = "";
      delete box.dataset.value;
      delete box.dataset.variable;
      return;
    }
    const value = shown.grid.values[cell.row * shown.grid.cols + cell.col]!;
    const [row, col] = [cell.row * shown.step, cell.col * shown.step];
    const at = [
      ...[...shown.isel].map(([d, i]) => `${d}=${coordText(shown.coords, d, i)}`),
      `${shown.rows}=${coordText(shown.coords, shown.rows, row)}`,
      `${shown.cols}=${coordText(shown.coords, shown.cols, col)}`,
    ];
    box.dataset.variable = shown.variable;
    box.dataset.value = String(value);
    box.dataset.row = String(row);
    box.dataset.col = String(col);
    box.textContent = `${shown.variable} = ${Number.isNaN(value) ? "missing" : `${Number(value.toPrecision(6))} ${shown.units}`}   at ${at.join(", ")}`;
  }
}
