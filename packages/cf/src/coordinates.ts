/**
 * The `coordinates` attribute (CF conventions section 5, "Coordinate
 * Systems and Domain"): the names of a variable's auxiliary and scalar
 * coordinates, separated by blanks. A selection that drops a dim keeps its
 * coordinate as a scalar coordinate named there, as xarray writes it.
 */
import { type Attr, type Attrs, attr } from "@lance-nd/nd-arrow";

/**
 * `attrs` with `names` added to its `coordinates` attribute (those not
 * listed yet, after those that are); `attrs` itself when `names` is empty.
 *
 * @example
 * withCoordinates(new Map([["coordinates", attr.utf8("lat lon")]]), ["time"]).get("coordinates")?.toJS(); // "lat lon time"
 */
export function withCoordinates(attrs: Attrs, names: readonly string[]): Attrs {
  if (names.length === 0) return attrs;
  const given = attrs.get("coordinates")?.toJS();
  const listed = typeof given === "string" ? given.split(/\s+/).filter((c) => c !== "") : [];
  const out = new Map<string, Attr>(attrs);
  out.set("coordinates", attr.utf8([...listed, ...names.filter((n) => !listed.includes(n))].join(" ")));
  return out;
}
