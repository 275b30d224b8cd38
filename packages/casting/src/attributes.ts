import { DataType, makeData, Vector } from "apache-arrow";
import type { Data, List } from "apache-arrow";
import { canCast } from "./can-cast.js";
import { invalidCast } from "./casting-error.js";
import { castData, castVector } from "./cast-vector.js";
import { sameType } from "./same-type.js";
import { copyValidity } from "./chunk.js";

/**
 * May an attribute of type `from` become one of type `to`? Attributes follow
 * "safe" under every casting (even "promote"); a scalar never becomes a List
 * or back; List<A> -> List<B> iff A -> B is safe.
 *
 * @example
 * canCastAttr(new List(new Field("item", new Float32())), new List(new Field("item", new Float64()))); // true
 * canCastAttr(new Float32(), new List(new Field("item", new Float32())));                          // false
 */
export function canCastAttr(from: DataType, to: DataType): boolean {
  const fromList = DataType.isList(from);
  if (fromList !== DataType.isList(to)) return false;
  return fromList ? canCast(from.children[0]!.type, to.children[0]!.type, "safe") : canCast(from, to, "safe");
}

/**
 * Casts an attribute value (a scalar vector, or a List vector of arrays) to
 * `to` as {@link canCastAttr} allows: the list offsets and validity stay, the
 * list values cast safely. Identical types return `value` itself.
 * Throws `CastingError` "InvalidCast" when {@link canCastAttr} says no.
 */
export function castAttrValue<T extends DataType>(value: Vector, to: T): Vector<T> {
  const from = value.type;
  if (sameType(from, to)) return value as unknown as Vector<T>;
  if (!canCastAttr(from, to)) throw invalidCast(from, to, "safe");
  if (!DataType.isList(to)) return castVector(value, to, "safe");
  const childType = to.children[0]!.type;
  let start = 0;
  const chunks = value.data.map((data) => {
    const child = data.children[0]!;
    const nullBitmap = copyValidity(data);
    const out = makeData({
      type: to as List,
      length: data.length,
      nullCount: nullBitmap === undefined ? 0 : data.nullCount,
      ...(nullBitmap === undefined ? {} : { nullBitmap }),
      valueOffsets: data.valueOffsets as Int32Array,
      child: castData(child, childType, "safe", start) as Data<DataType>,
    });
    start += child.length;
    return out;
  });
  return new Vector(chunks) as unknown as Vector<T>;
}
