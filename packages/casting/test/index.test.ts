import { describe, expect, it } from "vitest";
import * as casting from "../src/index.js";

describe("public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(casting).sort()).toEqual([
      "CASTINGS",
      "CastingError",
      "CodedError",
      "canCast",
      "canCastAttr",
      "castAttrValue",
      "castLevel",
      "castVector",
      "codedErrorGuard",
      "float16ToNumber",
      "isCastingError",
      "numberToFloat16",
      "promoteTypes",
      "promotionPlan",
      "quotedPlace",
      "sameType",
    ]);
  });
});
