/**
 * Time bounds (CF conventions section 7.1, "Cell Boundaries"): a bounds
 * variable shares its coordinate's `units` and `calendar` and often does not
 * repeat them. {@link boundsTimeAttrs} gives it them, as xarray does before
 * it decodes times, so it decodes like its coordinate.
 */
import type { Attrs } from "@lance-nd/nd-arrow";
import { isCfTimeUnits } from "./time-units.js";

/** A variable's name and attributes. */
export interface NamedAttrs {
  readonly name: string;
  readonly attrs: Attrs;
}

/**
 * The attributes of each bounds variable that lacks the time `units` or
 * `calendar` of the coordinate naming it in its `bounds` attribute: its own
 * attributes plus the missing ones (its own win). Variables that need
 * nothing are not in the map.
 *
 * @example
 * boundsTimeAttrs([time, timeBnds]).get("time_bnds")?.get("calendar"); // the Attr "noleap" of time
 */
export function boundsTimeAttrs(variables: readonly NamedAttrs[]): Map<string, Attrs> {
  const byName = new Map(variables.map((v) => [v.name, v.attrs]));
  const out = new Map<string, Attrs>();
  for (const { attrs } of variables) {
    const bounds = attrs.get("bounds")?.toJS();
    const units = attrs.get("units");
    if (typeof bounds !== "string" || !isCfTimeUnits(units?.toJS())) continue;
    const own = out.get(bounds) ?? byName.get(bounds);
    if (own === undefined) continue;
    const added = (["units", "calendar"] as const).flatMap((key) => {
      const value = attrs.get(key);
      return value === undefined || own.has(key) ? [] : [[key, value] as const];
    });
    if (added.length > 0) out.set(bounds, new Map([...own, ...added]));
  }
  return out;
}
