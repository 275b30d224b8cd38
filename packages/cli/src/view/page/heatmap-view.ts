/**
 * The heatmap on a canvas: one pixel per cell on an offscreen canvas,
 * drawn scaled without smoothing, with zoom (wheel) and pan (drag), and the
 * cell under the pointer reported to a listener.
 */
import { NAN_COLOR, colorIndex } from "../../plot/colormap.js";

/** A 2-D window ready to draw: row-major values, NaN for missing cells. */
export interface Grid {
  values: Float64Array;
  rows: number;
  cols: number;
  /** Draw row 0 at the bottom (north up when the rows follow an ascending latitude). */
  rowZeroAtBottom: boolean;
  /** The value range mapped onto the colour map. */
  min: number;
  max: number;
}

const MAX_ZOOM = 64;

/** A zoomable, pannable heatmap drawn on `canvas`. */
export class HeatmapView {
  readonly #canvas: HTMLCanvasElement;
  readonly #cells = document.createElement("canvas");
  #grid: Grid | undefined;
  #lut: Uint8Array;
  #zoom = 1;
  #panX = 0;
  #panY = 0;
  /** Where the pointer is on the canvas (canvas pixels), or undefined when it is off the canvas. */
  #pointer: [x: number, y: number] | undefined;
  /**
   * Called with the cell under the pointer (row and column of the window), or
   * undefined off the map: when the pointer moves, and when a new grid is shown
   * under a pointer that stays.
   */
  onPointer: (cell: { row: number; col: number } | undefined) => void = () => {};

  constructor(canvas: HTMLCanvasElement, lut: Uint8Array) {
    this.#canvas = canvas;
    this.#lut = lut;
    this.#listen();
  }

  /** Shows `grid`, keeping the zoom when the size is the same, and reports the cell now under the pointer. */
  show(grid: Grid): void {
    const resized = this.#grid === undefined || this.#grid.rows !== grid.rows || this.#grid.cols !== grid.cols;
    this.#grid = grid;
    if (resized) {
      const scale = Math.max(1, Math.floor(720 / grid.cols));
      this.#canvas.width = grid.cols * scale;
      this.#canvas.height = grid.rows * scale;
      this.resetZoom();
    }
    this.#paintCells();
    this.onPointer(this.#pointer === undefined ? undefined : this.cellAt(...this.#pointer));
  }

  /** Changes the colour table (256 RGB triples). */
  setColormap(lut: Uint8Array): void {
    this.#lut = lut;
    if (this.#grid !== undefined) this.#paintCells();
  }

  /** Back to the whole window. */
  resetZoom(): void {
    this.#zoom = 1;
    this.#panX = 0;
    this.#panY = 0;
    this.#draw();
  }

  /** The window cell at canvas pixel (x, y), or undefined outside the data. */
  cellAt(x: number, y: number): { row: number; col: number } | undefined {
    const grid = this.#grid;
    if (grid === undefined) return undefined;
    const cellW = (this.#canvas.width / grid.cols) * this.#zoom;
    const cellH = (this.#canvas.height / grid.rows) * this.#zoom;
    const col = Math.floor((x - this.#panX) / cellW);
    const drawnRow = Math.floor((y - this.#panY) / cellH);
    if (col < 0 || col >= grid.cols || drawnRow < 0 || drawnRow >= grid.rows) return undefined;
    return { row: grid.rowZeroAtBottom ? grid.rows - 1 - drawnRow : drawnRow, col };
  }

  #paintCells(): void {
    const grid = this.#grid!;
    this.#cells.width = grid.cols;
    this.#cells.height = grid.rows;
    const context = this.#cells.getContext("2d")!;
    const image = context.createImageData(grid.cols, grid.rows);
    const rgba = image.data;
    const lut = this.#lut;
    for (let r = 0; r < grid.rows; r++) {
      const y = grid.rowZeroAtBottom ? grid.rows - 1 - r : r;
      for (let c = 0; c < grid.cols; c++) {
        const k = colorIndex(grid.values[r * grid.cols + c]!, grid.min, grid.max);
        const o = 4 * (y * grid.cols + c);
        if (k < 0) {
          rgba[o] = NAN_COLOR[0];
          rgba[o + 1] = NAN_COLOR[1];
          rgba[o + 2] = NAN_COLOR[2];
        } else {
          rgba[o] = lut[3 * k]!;
          rgba[o + 1] = lut[3 * k + 1]!;
          rgba[o + 2] = lut[3 * k + 2]!;
        }
        rgba[o + 3] = 255;
      }
    }
    context.putImageData(image, 0, 0);
    this.#draw();
  }

  #draw(): void {
    const context = this.#canvas.getContext("2d")!;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = "#fff";
    context.fillRect(0, 0, this.#canvas.width, this.#canvas.height);
    if (this.#grid === undefined) return;
    context.imageSmoothingEnabled = false;
    context.setTransform(this.#zoom, 0, 0, this.#zoom, this.#panX, this.#panY);
    context.drawImage(this.#cells, 0, 0, this.#canvas.width, this.#canvas.height);
  }

  #listen(): void {
    const canvas = this.#canvas;
    const point = (event: MouseEvent): [number, number] => {
      const box = canvas.getBoundingClientRect();
      return [
        ((event.clientX - box.left) * canvas.width) / box.width,
        ((event.clientY - box.top) * canvas.height) / box.height,
      ];
    };
    let drag: { x: number; y: number } | undefined;
    canvas.addEventListener("wheel", (event) => {
      event.preventDefault();
      const [x, y] = point(event);
      const zoom = Math.min(MAX_ZOOM, Math.max(1, this.#zoom * (event.deltaY < 0 ? 1.25 : 0.8)));
      // Keep the point under the pointer in place.
      this.#panX = x - ((x - this.#panX) * zoom) / this.#zoom;
      this.#panY = y - ((y - this.#panY) * zoom) / this.#zoom;
      this.#zoom = zoom;
      if (zoom === 1) this.#panX = this.#panY = 0;
      this.#draw();
    });
    canvas.addEventListener("mousedown", (event) => {
      drag = { x: event.clientX, y: event.clientY };
    });
    window.addEventListener("mouseup", () => {
      drag = undefined;
    });
    canvas.addEventListener("mousemove", (event) => {
      if (drag !== undefined && event.buttons === 1) {
        const box = canvas.getBoundingClientRect();
        this.#panX += ((event.clientX - drag.x) * canvas.width) / box.width;
        this.#panY += ((event.clientY - drag.y) * canvas.height) / box.height;
        drag = { x: event.clientX, y: event.clientY };
        this.#draw();
      }
      this.#pointer = point(event);
      this.onPointer(this.cellAt(...this.#pointer));
    });
    canvas.addEventListener("mouseleave", () => {
      this.#pointer = undefined;
      this.onPointer(undefined);
    });
    canvas.addEventListener("dblclick", () => this.resetZoom());
  }
}
