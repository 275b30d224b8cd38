import { attr } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { withCoordinates } from "../src/coordinates.js";

describe("withCoordinates", () => {
  it("adds the names not listed yet after those that are, keeping the other attributes", () => {
    const attrs = new Map([
      ["units", attr.utf8("K")],
      ["coordinates", attr.utf8("lat  lon")],
    ]);
    const out = withCoordinates(attrs, ["time", "lon"]);
    expect(out.get("coordinates")?.toJS()).toBe("lat lon time");
    expect(out.get("units")?.toJS()).toBe("K");
    expect(attrs.get("coordinates")?.toJS()).toBe("lat  lon");
  });

  it("sets the attribute when there is none, and returns the same attributes for no names", () => {
    const attrs = new Map([["units", attr.utf8("K")]]);
    expect(withCoordinates(attrs, ["time"]).get("coordinates")?.toJS()).toBe("time");
    expect(withCoordinates(attrs, [])).toBe(attrs);
  });
});
