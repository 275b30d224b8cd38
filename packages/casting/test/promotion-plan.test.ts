import {
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  TimestampMillisecond,
  TimestampSecond,
  Uint8,
  Uint64,
  Utf8,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import { promotionPlan, sameType } from "../src/index.js";

function widensTo(plan: ReturnType<typeof promotionPlan>) {
  return plan.action === "widen" ? String(plan.to) : plan.action;
}

describe("promotionPlan", () => {
  it("identical types: keep", () => {
    expect(promotionPlan(new Float32(), new Float32())).toEqual({ action: "keep" });
  });

  it("incoming casts safely into the table type: cast (the table wins)", () => {
    expect(promotionPlan(new Float64(), new Int32())).toEqual({ action: "cast" });
    expect(promotionPlan(new TimestampMillisecond(), new TimestampSecond())).toEqual({ action: "cast" });
  });

  it("Int32 into a Float32 table: widen the table to Float64", () => {
    const plan = promotionPlan(new Float32(), new Int32());
    expect(plan.action).toBe("widen");
    expect(plan.action === "widen" && sameType(plan.to, new Float64())).toBe(true);
  });

  it("widens to numpy's promote_types", () => {
    expect(widensTo(promotionPlan(new Int8(), new Uint8()))).toBe(String(new Int16()));
    expect(widensTo(promotionPlan(new Float32(), new Float64()))).toBe(String(new Float64()));
    expect(widensTo(promotionPlan(new Int64(), new Uint64()))).toBe(String(new Float64()));
    expect(widensTo(promotionPlan(new TimestampSecond(), new TimestampMillisecond()))).toBe(
      String(new TimestampMillisecond()),
    );
  });

  it("no common type: NoCommonType", () => {
    expect(() => promotionPlan(new Int32(), new Utf8())).toThrow(expect.objectContaining({ code: "NoCommonType" }));
    expect(() => promotionPlan(new TimestampSecond("UTC"), new TimestampSecond("Asia/Tokyo"))).toThrow(
      expect.objectContaining({ code: "NoCommonType" }),
    );
  });
});
