/**
 * Flattening a batch to a flat Arrow table, one row per grid cell, like
 * xarray's `Dataset.to_dataframe()` with the index reset (README, API).
 */
import { Field, Schema, Struct, Table, Uint32, makeData, makeVector } from "apache-arrow";
import { recordBatchOf } from "./record-batch.js";
import type { Vector } from "apache-arrow";
import { broadcastNamed } from "./broadcast.js";
import { NdArrowError } from "./errors.js";
import type { NdRecordBatch } from "./batch.js";
import { concatData } from "./concat.js";
import { stridedIndices } from "./strided.js";

/**
 * `batch` as a table with one row per grid cell, row-major over the grid
 * (the last grid dim varies fastest). Columns: one per grid dim, in grid
 * order, holding the coordinate variable's values where the batch has a
 * 1-D array named like the dim (its type, attributes dropped), otherwise the
 * integer index along the dim as UInt32; then one column per other array,
 * in batch order, broadcast to the grid, nulls kept. Field metadata of an
 * array column is the array's metadata.
 *
 * Throws `InvalidDims` for an array named like a grid dim that is not 1-D
 * along that dim (it would clash with the dim column).
 *
 * @example
 * const table = flatten(new NdRecordBatch({ sst, lat, lon }));
 * table.numRows;                  // time * lat * lon
 * table.schema.names;             // ["time", "lat", "lon", "sst"]
 */
export function flatten(batch: NdRecordBatch): Table {
  const grid = batch.grid();
  const sizes = grid.map((d) => d.size);
  const rows = sizes.reduce((n, s) => n * s, 1);
  const fields: Field[] = [];
  const columns: Vector[] = [];
  grid.forEach((dim, d) => {
    const coord = batch.get(dim.name);
    if (coord === undefined) {
      const strides = sizes.map((_, k) => (k === d ? 1 : 0));
      fields.push(new Field(dim.name, new Uint32(), false));
      columns.push(makeVector(stridedIndices(sizes, strides)));
      return;
    }
    if (coord.rank !== 1 || coord.dims[0]!.name !== dim.name) {
      throw new NdArrowError(
        "InvalidDims",
        `an array named like grid dim "${dim.name}" must be 1-D along it (a coordinate variable), ` +
          `got dims [${coord.dimNames.join(", ")}]`,
        { column: dim.name },
      );
    }
    const values = broadcastNamed(coord, grid, dim.name).values;
    fields.push(new Field(dim.name, coord.type, true, new Map(coord.metadata)));
    columns.push(values);
  });
  const dimNames = new Set(grid.map((d) => d.name));
  for (const [name, array] of batch.arrays()) {
    if (dimNames.has(name)) continue;
    fields.push(new Field(name, array.type, true, new Map(array.metadata)));
    columns.push(broadcastNamed(array, grid, name).values);
  }
  const type = new Struct(fields);
  const children = columns.map((c) => concatData(c.data));
  const data = makeData({ type, length: rows, nullCount: 0, children });
  return new Table([recordBatchOf(new Schema(fields), data)]);
}
