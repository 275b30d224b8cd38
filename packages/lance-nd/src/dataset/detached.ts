/**
 * Batches that hold no view of a taken batch. A decoded row's values and
 * attribute values are views of the take's Arrow buffers (nd-arrow's
 * `decode`), and `assemble` hands back an array its window covers whole as
 * is (a row's coordinate, e.g. its one time step). A cut of the row that
 * kept such a view would keep the whole take alive: a read that holds a cut
 * of every row (`readWindow` over many takes) would then hold every take,
 * its memory following the rows read rather than the window.
 */
import { Table, tableFromIPC, tableToIPC, type Vector } from "apache-arrow";
import { Attr, NdArray, NdRecordBatch, type Attrs } from "@lance-nd/nd-arrow";

/** The copy of each Attr already made: rows of a take share their attributes' Attr objects. */
const copies = new WeakMap<Attr, Attr>();

/** `vector` copied into buffers of its own (an Arrow IPC round trip copies just the vector's cells). */
function copied(vector: Vector): Vector {
  return tableFromIPC(tableToIPC(new Table({ value: vector }))).getChild("value")!;
}

/** True when a buffer of `vector` is a view of a bigger one (it keeps more memory alive than it holds). */
function isView(vector: Vector): boolean {
  return vector.data.some((data) =>
    [data.values, data.valueOffsets, data.nullBitmap].some(
      (buffer) => buffer !== undefined && buffer !== null && buffer.buffer.byteLength > buffer.byteLength,
    ),
  );
}

function detachedAttr(attr: Attr): Attr {
  const known = copies.get(attr);
  if (known !== undefined) return known;
  const copy = new Attr(attr.type, copied(attr.value));
  copies.set(attr, copy);
  return copy;
}

function detachedAttrs(attrs: Attrs): Attrs {
  return new Map([...attrs].map(([key, attr]) => [key, detachedAttr(attr)] as const));
}

/**
 * `batch` holding no view of another buffer: its attributes and global
 * attributes copied, and the values of each array that are a view of a
 * bigger buffer (values of their own are left as they are).
 */
export function detachedBatch(batch: NdRecordBatch): NdRecordBatch {
  return new NdRecordBatch(
    batch.arrays().map(([name, array]) => {
      const values = isView(array.values) ? copied(array.values) : array.values;
      return [name, new NdArray(values, array.dims, detachedAttrs(array.attrs), array.metadata)] as const;
    }),
    detachedAttrs(batch.globalAttrs),
  );
}
