import type { DataType } from "apache-arrow";
import { canCast } from "./can-cast.js";
import { promoteTypes } from "./promote-types.js";
import { sameType } from "./same-type.js";

/** What a write under casting "promote" does with a variable whose type differs from the table. */
export type PromotionPlan = { action: "keep" } | { action: "cast" } | { action: "widen"; to: DataType };

/**
 * The plan for new values of type `incoming` going into a table column of
 * type `tableType` under casting "promote":
 * - `keep`: identical types;
 * - `cast`: the new values cast safely into the table type;
 * - `widen`: the table widens to `to` = promoteTypes(table, incoming) first,
 *   then the new values cast safely to it.
 *
 * Throws `CastingError` "NoCommonType" when there is no common type. As in
 * numpy, Int64 or UInt64 with a float (or with each other) widens to Float64,
 * which rounds integers beyond 2^53.
 *
 * @example
 * promotionPlan(new Float32(), new Int32()); // { action: "widen", to: Float64 }
 */
export function promotionPlan(tableType: DataType, incoming: DataType): PromotionPlan {
  if (sameType(tableType, incoming)) return { action: "keep" };
  if (canCast(incoming, tableType, "safe")) return { action: "cast" };
  return { action: "widen", to: promoteTypes(tableType, incoming) };
}
