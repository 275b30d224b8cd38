/**
 * Cuts that keep no take alive but the first. A decoded row's values and
 * attribute values are views of its take's Arrow buffers (nd-arrow's
 * `decode`: the SDK hands a take back as one IPC buffer), and `assemble`
 * gives back as is an array its window covers whole (a map row's one time
 * step). A cut of a row that kept one such view kept the whole take: a read
 * that holds a cut of every row it takes (`readWindow` over many takes, a
 * `rechunk` slab) then held every take, its memory following the rows read
 * instead of the window (a rechunk of 2 GiB of one-step rows held 3.6 GiB
 * for a 64 MiB slab).
 *
 * Attributes are not copied (an Arrow IPC round trip changed some types'
 * values): each is replaced by the first one seen with the same type and
 * value, which the read's first take holds. Values that view a bigger
 * buffer are copied when they are numbers or times without nulls (a cut's
 * coordinates), the only case a cut gives back uncopied in these reads.
 */
import { DataType, makeData, makeVector, type Float, type Vector } from "apache-arrow";
import { NdArray, NdRecordBatch, type Attr, type Attrs } from "@lance-nd/nd-arrow";

/** True when a buffer of `vector` views a bigger one (it keeps more alive than it holds). */
function viewsMore(vector: Vector): boolean {
  const bigger = (buffer: ArrayBufferView | null | undefined) =>
    buffer !== undefined && buffer !== null && buffer.buffer.byteLength > buffer.byteLength;
  const data = (d: Vector["data"][number]): boolean =>
    bigger(d.values) || bigger(d.valueOffsets) || bigger(d.nullBitmap) || d.children.some(data);
  return vector.data.some(data);
}

/** A number or time type held as one typed array of fixed-width values. */
const isPlainNumber = (type: DataType) =>
  DataType.isInt(type) || DataType.isFloat(type) || DataType.isTimestamp(type) || DataType.isDate(type);

/** `values` in a buffer of its own when it is one run of numbers or times without nulls that views a bigger one; else as is. */
function ownValues(values: Vector): Vector {
  const [data, ...more] = values.data;
  if (data === undefined || more.length > 0 || data.nullCount !== 0 || !isPlainNumber(data.type) || !viewsMore(values))
    return values;
  // A slice's values start at its first value (its offset places only its validity bits).
  const copy = data.values.slice(0, data.length * data.stride);
  // makeData builds every one of these types from its values buffer alone; Float stands for them.
  return makeVector(
    makeData({ type: data.type as Float, length: data.length, nullCount: 0, data: copy as Float["TArray"] }),
  );
}

/** A key of `attr`'s type and value: equal keys, the same attribute. */
function attrKey(attr: Attr): string {
  const value = JSON.stringify(attr.toJS(), (_key, item: unknown) =>
    typeof item === "bigint" || typeof item === "number"
      ? `${typeof item}:${String(item)}`
      : ArrayBuffer.isView(item)
        ? Array.from(item as unknown as ArrayLike<unknown>, (x) => String(x))
        : item,
  );
  return `${String(attr.type)}\u0000${value}`;
}

/**
 * A function that gives a cut back holding no view of its take but the
 * first seen: its attributes and global attributes replaced by the first
 * equal ones this function saw, its values that view a bigger buffer copied
 * (numbers and times without nulls). One such function per read.
 */
export function takeDetacher(): (batch: NdRecordBatch) => NdRecordBatch {
  const firstSeen = new Map<string, Attr>();
  const canonical = (attrs: Attrs): Attrs =>
    new Map(
      [...attrs].map(([key, attr]) => {
        const id = attrKey(attr);
        const known = firstSeen.get(id);
        if (known !== undefined) return [key, known] as const;
        firstSeen.set(id, attr);
        return [key, attr] as const;
      }),
    );
  return (batch) =>
    new NdRecordBatch(
      batch
        .arrays()
        .map(
          ([name, array]) =>
            [name, new NdArray(ownValues(array.values), array.dims, canonical(array.attrs), array.metadata)] as const,
        ),
      canonical(batch.globalAttrs),
    );
}
