import { makeData, Vector } from "apache-arrow";
import type { DataType, Int } from "apache-arrow";

/** A one-chunk vector of `type` over `values`; `valid[i] === false` makes value i null. */
export function vectorOf(
  type: DataType,
  values: ArrayBufferView & { length: number },
  valid?: readonly boolean[],
): Vector {
  const length = type.typeId === 6 ? (valid?.length ?? values.length * 8) : values.length;
  let nullBitmap: Uint8Array | undefined;
  let nullCount = 0;
  if (valid !== undefined) {
    nullBitmap = new Uint8Array((length + 7) >> 3);
    valid.forEach((ok, i) => {
      if (ok) nullBitmap![i >> 3]! |= 1 << (i & 7);
      else nullCount++;
    });
  }
  return new Vector([
    makeData({
      type: type as Int,
      length,
      nullCount,
      ...(nullBitmap === undefined ? {} : { nullBitmap }),
      data: values as Int["TArray"],
    }),
  ]);
}

/** The values of `vector` as JS values, nulls as null (what a user reads with get). */
export function valuesOf(vector: Vector): unknown[] {
  return Array.from({ length: vector.length }, (_, i) => (vector.isValid(i) ? vector.get(i) : null));
}
