import type { DataType } from "apache-arrow";
import { CastingError } from "./casting-error.js";
import { numericSafe, numericSameKind, numericType } from "./numeric.js";
import { sameType } from "./same-type.js";
import { temporalLevel, temporalType } from "./temporal.js";
import { variableWidthLevel, variableWidthType } from "./variable-width.js";

/** numpy's casting modes that lance-nd supports, weakest first (the one list of them; see {@link Casting}). */
export const CASTINGS = ["no", "safe", "same_kind"] as const;

/** One of {@link CASTINGS}. */
export type Casting = (typeof CASTINGS)[number];

/**
 * The weakest casting that allows `from` -> `to` for two different types:
 * "safe", "same_kind", or undefined when no supported mode does.
 */
export function castLevel(from: DataType, to: DataType): "safe" | "same_kind" | undefined {
  const numericFrom = numericType(from);
  const numericTo = numericType(to);
  if (numericFrom !== undefined && numericTo !== undefined) {
    if (numericSafe(numericFrom, numericTo)) return "safe";
    return numericSameKind(numericFrom, numericTo) ? "same_kind" : undefined;
  }
  const temporalFrom = temporalType(from);
  const temporalTo = temporalType(to);
  if (temporalFrom !== undefined && temporalTo !== undefined) return temporalLevel(temporalFrom, temporalTo);
  const bytesFrom = variableWidthType(from);
  const bytesTo = variableWidthType(to);
  if (bytesFrom !== undefined && bytesTo !== undefined) return variableWidthLevel(bytesFrom, bytesTo);
  return undefined;
}

/**
 * numpy.can_cast over Arrow types: may values of `from` become values of `to`
 * under `casting`? Identical types always may; "no" allows nothing else;
 * "safe" allows casts that change no value; "same_kind" also allows casts
 * within a kind or to a later kind (bool, unsigned, signed, float; finer to
 * coarser temporal units). Throws `CastingError` "InvalidCast" for an unknown
 * casting mode.
 *
 * @example
 * canCast(new Int32(), new Float64(), "safe");      // true
 * canCast(new Float64(), new Float32(), "safe");    // false
 * canCast(new Float64(), new Float32(), "same_kind"); // true
 */
export function canCast(from: DataType, to: DataType, casting: Casting): boolean {
  if (!CASTINGS.includes(casting)) {
    throw new CastingError(
      "InvalidCast",
      `unknown casting "${String(casting)}"; expected one of ${CASTINGS.join(", ")}`,
    );
  }
  if (sameType(from, to)) return true;
  if (casting === "no") return false;
  const level = castLevel(from, to);
  return level === "safe" || (level === "same_kind" && casting === "same_kind");
}
