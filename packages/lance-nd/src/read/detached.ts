/**
 * Batches that keep no taken batch alive. A decoded row's values and
 * attribute values are views of its take's Arrow buffers (nd-arrow's
 * `decode`: the SDK hands a take back as one IPC buffer), and `assemble`
 * gives back as is an array its window covers whole (a map row's one time
 * step). A cut of a row that kept one such view kept the whole take: a read
 * that holds a cut of every row it takes (`readWindow` over many takes, a
 * `rechunk` slab) then held every take, its memory following the rows read
 * instead of the window (README "Layouts": 2 GiB of one-step rows held 3.6
 * GiB for a 64 MiB slab).
 */
import { Table, tableFromIPC, tableToIPC, type Vector } from "apache-arrow";
import { Attr, NdArray, NdRecordBatch, type Attrs } from "@lance-nd/nd-arrow";

/** The copy made of each attribute: the rows of a take share their Attr objects. */
const attrCopies = new WeakMap<Attr, Attr>();

/** `vector`'s cells in buffers of their own (an IPC write copies only the cells of a slice). */
function copied(vector: Vector): Vector {
  return tableFromIPC(tableToIPC(new Table({ cells: vector }))).getChild("cells")!;
}

/** True when a buffer of `vector` views a bigger one (it keeps more alive than it holds). */
function viewsMore(vector: Vector): boolean {
  const bigger = (buffer: ArrayBufferView | null | undefined) =>
    buffer !== undefined && buffer !== null && buffer.buffer.byteLength > buffer.byteLength;
  const data = (d: Vector["data"][number]): boolean =>
    bigger(d.values) || bigger(d.valueOffsets) || bigger(d.nullBitmap) || d.children.some(data);
  return vector.data.some(data);
}

function detachedAttr(attr: Attr): Attr {
  if (!viewsMore(attr.value)) return attr;
  let copy = attrCopies.get(attr);
  if (copy === undefined) {
    copy = new Attr(attr.type, copied(attr.value));
    attrCopies.set(attr, copy);
  }
  return copy;
}

function detachedAttrs(attrs: Attrs): Attrs {
  return new Map([...attrs].map(([key, attr]) => [key, detachedAttr(attr)] as const));
}

/**
 * `batch` with no view of a bigger buffer: the values and attribute values
 * that view one copied (each attribute once, however many rows share it),
 * the rest as they are.
 */
export function detachedBatch(batch: NdRecordBatch): NdRecordBatch {
  return new NdRecordBatch(
    batch.arrays().map(([name, array]) => {
      const values = viewsMore(array.values) ? copied(array.values) : array.values;
      return [name, new NdArray(values, array.dims, detachedAttrs(array.attrs), array.metadata)] as const;
    }),
    detachedAttrs(batch.globalAttrs),
  );
}
