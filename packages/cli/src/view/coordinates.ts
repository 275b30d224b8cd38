/**
 * The coordinate variables of a dataset (1-D variables named as their dim),
 * gathered from its rows while they are read for its summary, so the page's
 * axes and sliders cost no second read.
 */
import { CHUNK_OFFSET, NdRecordBatch, assemble, attr } from "@lance-nd/nd-arrow";
import type { NdArray } from "@lance-nd/nd-arrow";

/** Collects the pieces of each coordinate from rows, then assembles them. */
export class CoordinateCollector {
  /** Per coordinate: its pieces by start along its dim. */
  readonly #pieces = new Map<string, Map<number, NdArray>>();

  /**
   * Takes the coordinates of `row`, whose `chunk_offset` is `offsets`
   * (empty for a row that is not a chunk). A piece is taken from the rows
   * that start at 0 on every other axis, so each part of a coordinate is
   * taken once.
   */
  add(row: NdRecordBatch, offsets: readonly number[]): void {
    const grid = row.grid();
    for (const [name, array] of row.arrays()) {
      if (array.dims.length !== 1 || array.dims[0]!.name !== name) continue;
      const axis = grid.findIndex((d) => d.name === name);
      if (offsets.some((start, a) => a !== axis && start !== 0)) continue;
      let pieces = this.#pieces.get(name);
      if (pieces === undefined) this.#pieces.set(name, (pieces = new Map()));
      pieces.set(offsets[axis] ?? 0, array);
    }
  }

  /** The coordinates, each assembled from its pieces (nd-arrow `assemble`). */
  result(): NdRecordBatch {
    return new NdRecordBatch(
      [...this.#pieces].map(([name, pieces]) => {
        if (pieces.size === 1 && pieces.has(0)) return [name, pieces.get(0)!] as const;
        const rows = [...pieces].map(([start, array]) => new NdRecordBatch({ [name]: array }, { [CHUNK_OFFSET]: attr.uint32([start]) }));
        return [name, assemble(rows).get(name)!] as const;
      }),
    );
  }
}
