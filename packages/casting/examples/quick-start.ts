/**
 * Quick start: numpy's casting rules on Arrow types and vectors.
 *
 * Run from packages/casting: node --conditions=@lance-nd/source --import tsx examples/quick-start.ts
 */
import { Float32, Float64, Int8, Int32, makeVector } from "apache-arrow";
import { canCast, castVector, isCastingError, promoteTypes } from "@lance-nd/casting";

console.log("Int32 -> Float64 safe:", canCast(new Int32(), new Float64(), "safe")); // true
console.log("Float64 -> Float32 safe:", canCast(new Float64(), new Float32(), "safe")); // false
console.log("Float64 -> Float32 same_kind:", canCast(new Float64(), new Float32(), "same_kind")); // true
console.log("promote Int32, Float32:", String(promoteTypes(new Int32(), new Float32()))); // Float64

const values = makeVector(new Int32Array([1, -2, 300]));
console.log("as Float64:", castVector(values, new Float64(), "safe").toArray()); // Float64Array [1, -2, 300]

try {
  castVector(values, new Int8(), "same_kind");
} catch (err) {
  if (isCastingError(err, "ValueOutOfRange"))
    console.log(`value ${String(err.value)} at index ${err.index} does not fit Int8`);
}
