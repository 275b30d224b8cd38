import { describe, expect, it } from "vitest";
import { CastingError, isCastingError } from "../src/index.js";

describe("CastingError", () => {
  it("isCastingError matches the class and, if given, the codes", () => {
    const err = new CastingError("NoCommonType", "no common type", { from: "Utf8", to: "Int32" });
    expect(isCastingError(err)).toBe(true);
    expect(isCastingError(err, "NoCommonType", "InvalidCast")).toBe(true);
    expect(isCastingError(err, "ValueOutOfRange")).toBe(false);
    expect(isCastingError(new Error("x"))).toBe(false);
  });

  it("carries its typed fields and cause", () => {
    const cause = new Error("inner");
    const err = new CastingError("ValueOutOfRange", "m", { index: 3, value: 300n, casting: "same_kind", cause });
    expect(err).toMatchObject({
      name: "CastingError",
      code: "ValueOutOfRange",
      index: 3,
      value: 300n,
      casting: "same_kind",
      cause,
    });
  });
});
