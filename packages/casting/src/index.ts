/**
 * numpy's casting and promotion rules over Apache Arrow types.
 *
 * `canCast` and `promoteTypes` answer as numpy.can_cast and
 * numpy.promote_types do for Bool, integers and floats, and as numpy treats
 * the analogues of temporal and string types; `castVector` casts the values of
 * an Arrow vector under a casting mode; `promotionPlan` and `canCastAttr` are
 * the decisions a lance-nd write makes.
 *
 * @example
 * import { Float32, Float64, Int32, makeVector } from "apache-arrow";
 * import { canCast, castVector, promoteTypes } from "@lance-nd/casting";
 *
 * canCast(new Int32(), new Float64(), "safe");           // true
 * promoteTypes(new Int32(), new Float32());              // Float64
 * castVector(makeVector(new Int32Array([1, 2])), new Float64(), "safe");
 *
 * @module
 */
export { canCast, castLevel, CASTINGS, type Casting } from "./can-cast.js";
export { castVector } from "./cast-vector.js";
export { canCastAttr, castAttrValue } from "./attributes.js";
export { CastingError, isCastingError } from "./casting-error.js";
export { CodedError, codedErrorGuard, quotedPlace, type CodedErrorGuard } from "./coded-error.js";
export type { CastingErrorCode, CastingErrorDetails } from "./casting-error.js";
export { float16ToNumber, numberToFloat16 } from "./float16.js";
export { promoteTypes } from "./promote-types.js";
export { promotionPlan } from "./promotion-plan.js";
export type { PromotionPlan } from "./promotion-plan.js";
export { sameType } from "./same-type.js";
export type { BigIntArray, NumberArray, NumericArray } from "./typed-arrays.js";
